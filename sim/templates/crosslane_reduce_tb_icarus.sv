// {{ header }}
//
// Icarus harness: makes the clock, runs crosslane_reduce_tb, and exits
// non-zero unless the testbench checked at least one vector and found no
// error (`iverilog -g2012`, `vvp -n`).
module crosslane_reduce_tb_icarus #(
    parameter integer EVERY = 1,
    parameter integer FAST = 0
);
    reg clk = 1'b0;
    wire done, failed;
    wire dut_valid;
    wire [31:0] dut_result;
    wire [63:0] dut_mask;
    crosslane_reduce_tb #(.EVERY(EVERY), .FAST(FAST)) tb (
        .clk(clk), .ext_rst_n(1'b1), .ext_valid(1'b0), .ext_op(9'h0), .ext_vec(512'h0), .ext_vbool(64'h0),
        .dut_valid(dut_valid), .dut_result(dut_result), .dut_mask(dut_mask),
        .done(done), .failed(failed)
    );
    always #5 clk = !clk;
    always @(posedge clk) if (done) $finish_and_return(failed ? 1 : 0);
    initial if ($test$plusargs("vcd")) begin
        $dumpfile("crosslane_reduce_tb.vcd");
        $dumpvars(0, crosslane_reduce_tb_icarus);
    end
endmodule
