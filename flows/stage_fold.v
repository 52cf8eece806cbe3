// The output side of the stage wrappers of the FPGA flow (flows/fpga.py,
// "stage:NAME"): every bit a stage registered, XOR-folded onto the unit's
// 96 result and mask bits in a register, so that synthesis keeps all of the
// stage and the wrapper has the unit's ports. Not part of the IP.
`timescale 1ns / 1ps
module crosslane_stage_fold #(
    parameter N = 96
) (
    input  wire         clk_i,
    input  wire [N-1:0] held_i,
    input  wire         valid_i,
    output wire         out_valid_o,
    output wire [31:0]  result_o,
    output wire [63:0]  mask_o
);
    reg [95:0] fold;
    reg [95:0] fold_q;
    reg valid_q = 1'b0;
    integer i;
    always @(*) begin
        fold = 96'd0;
        for (i = 0; i < N; i = i + 1) fold[i % 96] = fold[i % 96] ^ held_i[i];
    end
    always @(posedge clk_i) begin
        fold_q <= fold;
        valid_q <= valid_i;
    end
    assign result_o = fold_q[31:0];
    assign mask_o = fold_q[95:32];
    assign out_valid_o = valid_q;
endmodule
