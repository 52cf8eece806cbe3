// The registered harness of the FPGA flow (flows/fpga.py) for an fp unit of
// two 32-bit operands and one 32-bit result (crosslane_f32_add_l<L>): a
// 64-bit shift register loaded a byte a clock while `load` is high drives
// a_i and b_i, and the result reaches a flip-flop through an XOR fold, so
// synthesis keeps all of the unit and timing is register to register. The
// unit's first stage is fed straight from the shift register (its flops
// have a clock enable, the unit's have none, so they cannot merge).
// `DUT` names the module under test. Its own cost: 64 + 8 flip-flops.
`ifndef DUT
`define DUT crosslane_f32_add_l2
`endif
module crosslane_fpga_harness (
    input wire clk,
    input wire rst_n,
    input wire load,
    input wire [7:0] din,
    output wire [7:0] dout
);
    reg [63:0] sh = 64'd0;
    always @(posedge clk) if (load) sh <= {sh[55:0], din};
    wire [31:0] result;
    `DUT unit (.clk_i(clk), .a_i(sh[31:0]), .b_i(sh[63:32]), .sum_o(result));
    wire unused_rst = rst_n;
    reg [7:0] dout_q = 8'd0;
    always @(posedge clk) dout_q <= result[7:0] ^ result[15:8] ^ result[23:16] ^ result[31:24];
    assign dout = dout_q;
endmodule
