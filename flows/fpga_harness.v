// The registered harness of the FPGA flow (flows/fpga.py): every input port
// of the unit is driven by a flip-flop of a shift register loaded a byte a
// clock while `load` is high, and every output bit reaches a flip-flop
// through an XOR fold, so synthesis keeps all of the unit and timing is
// register to register. The shift register has a clock enable and the
// unit's input register has none, so synthesis cannot merge the two.
// Chain order, first loaded first: in_valid, vec, vbool, op; with op_i tied
// (TIED = 1, TIE_OP) or inputs unused, the tail of the chain is trimmed.
// `DUT` names the module under test (default crosslane_reduce).
// Its own cost: at most 586 + 8 flip-flops.
`ifndef DUT
`define DUT crosslane_reduce
`endif
module crosslane_fpga_harness #(
    parameter TIED = 0,
    parameter [8:0] TIE_OP = 9'h000
) (
    input wire clk,
    input wire rst_n,
    input wire load,
    input wire [7:0] din,
    output wire [7:0] dout
);
    // in_valid 1 + vec 512 + vbool 64 + op 9 = 586 bits.
    reg [585:0] sh = 586'd0;
    always @(posedge clk) if (load) sh <= {sh[577:0], din};
    wire out_valid;
    wire [31:0] result;
    wire [63:0] mask;
    `DUT unit (
        .clk_i(clk), .rst_ni(rst_n), .in_valid_i(sh[0]), .vec_i(sh[512:1]), .vbool_i(sh[576:513]),
        .op_i(TIED ? TIE_OP : sh[585:577]), .out_valid_o(out_valid), .result_o(result), .mask_o(mask)
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
