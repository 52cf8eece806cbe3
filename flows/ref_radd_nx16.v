// A hand-written pipelined radd_nx16 tree, the reference the FPGA flow
// compares the unit's op-tied radd_nx16 against (flows/fpga.py, configuration
// "handwritten:radd_nx16"): 32 signed 16-bit lanes summed in five registered
// levels of widths 17..21, no input register (the harness's is its input),
// the same ports as crosslane_reduce. Not part of the IP.
`timescale 1ns / 1ps
module ref_radd_nx16 (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire         in_valid_i,
    input  wire [8:0]   op_i,
    input  wire [511:0] vec_i,
    input  wire [63:0]  vbool_i,
    output wire         out_valid_o,
    output wire [31:0]  result_o,
    output wire [63:0]  mask_o
);
    reg signed [16:0] l1 [0:15];
    reg signed [17:0] l2 [0:7];
    reg signed [18:0] l3 [0:3];
    reg signed [19:0] l4 [0:1];
    reg signed [20:0] l5;
    reg [4:0] valid = 5'd0;
    integer j;
    always @(posedge clk_i) begin
        for (j = 0; j < 16; j = j + 1)
            l1[j] <= $signed(vec_i[32*j +: 16]) + $signed(vec_i[32*j+16 +: 16]);
        for (j = 0; j < 8; j = j + 1) l2[j] <= l1[2*j] + l1[2*j+1];
        for (j = 0; j < 4; j = j + 1) l3[j] <= l2[2*j] + l2[2*j+1];
        for (j = 0; j < 2; j = j + 1) l4[j] <= l3[2*j] + l3[2*j+1];
        l5 <= l4[0] + l4[1];
        valid <= {valid[3:0], in_valid_i} & {5{rst_ni}};
    end
    assign result_o = {{11{l5[20]}}, l5};
    assign mask_o = 64'd0;
    assign out_valid_o = valid[4];
endmodule
