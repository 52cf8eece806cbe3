// The registered harness of the FPGA flow (flows/fpga.py): every input port
// of crosslane_reduce is driven by a flip-flop of a shift register loaded a
// byte a clock, and every output bit reaches a flip-flop through an XOR fold,
// so synthesis keeps all of the unit and timing is register to register.
// TIED = 1 ties op_i to TIE_OP (the op-tied measurements).
// Its own cost: 586 + 8 flip-flops (a fixed 594 in every figure).
module crosslane_fpga_harness #(
    parameter TIED = 0,
    parameter [8:0] TIE_OP = 9'h000
) (
    input wire clk,
    input wire rst_n,
    input wire [7:0] din,
    output wire [7:0] dout
);
    // op 9 + vec 512 + vbool 64 + in_valid 1 = 586 bits.
    reg [585:0] sh = 586'd0;
    always @(posedge clk) sh <= {sh[577:0], din};
    wire out_valid;
    wire [31:0] result;
    wire [63:0] mask;
    crosslane_reduce unit (
        .clk_i(clk), .rst_ni(rst_n), .in_valid_i(sh[585]), .op_i(TIED ? TIE_OP : sh[8:0]), .vec_i(sh[520:9]),
        .vbool_i(sh[584:521]), .out_valid_o(out_valid), .result_o(result), .mask_o(mask)
    );
    wire [96:0] outs = {out_valid, result, mask};
    reg [7:0] fold;
    integer i;
    always @(*) begin
        fold = 8'd0;
        for (i = 0; i < 97; i = i + 1) fold[i % 8] = fold[i % 8] ^ outs[i];
    end
    reg [7:0] dout_q = 8'd0;
    always @(posedge clk) dout_q <= fold;
    assign dout = dout_q;
endmodule
