// The unit's input stage alone, for the FPGA flow (flows/fpga.py,
// configuration "stage:input"): the op decoder, the 16 leaf keys and the
// input register of crosslane_reduce (the default configuration,
// generated/rtl/crosslane_reduce.v, whose component modules it instantiates), with
// the same ports as the unit. The registered keys, lane actives and control
// word are folded by XOR, in a second register (flows/stage_fold.v), onto result_o / mask_o, so
// that synthesis keeps all of the stage. Its Fmax is what the stage allows
// with the rest of the unit out of the way: an upper bound on the unit's.
// Not part of the IP.
`timescale 1ns / 1ps
module crosslane_input_stage (
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
    wire [52:0] ctrl;
    wire [16:0] leaf;
    wire b8, h16, w32, k_sum, k_max, k_and, k_or, k_xor, sext, saturate, extremum, sflip, minimum, num,
        has_mask, vbool_fold, predicated;
    crosslane_op_decode in_dec (.op_i(op_i), .ctrl_o(ctrl), .leaf_o(leaf));
    crosslane_controls in_ctl (
        .ctrl_i(leaf), .b8_o(b8), .h16_o(h16), .w32_o(w32), .k_sum_o(k_sum), .k_max_o(k_max), .k_and_o(k_and),
        .k_or_o(k_or), .k_xor_o(k_xor), .sext_o(sext), .saturate_o(saturate), .extremum_o(extremum),
        .sflip_o(sflip), .minimum_o(minimum), .num_o(num), .has_mask_o(has_mask), .vbool_fold_o(vbool_fold),
        .predicated_o(predicated)
    );
    // The input register: keys, the lane starts' active bits, the control word, valid.
    reg [511:0] in_key;
    reg [63:0] in_act;
    reg [52:0] in_ctrl;
    reg in_valid = 1'b0;
    genvar w;
    generate
        for (w = 0; w < 16; w = w + 1) begin : g_leaf
            wire [31:0] key;
            wire [63:0] act;
            crosslane_leaf_key leaf_key (
                .win_i(vec_i[32*w +: 32]), .vb_i(vbool_i[4*w +: 4]), .b8_i(b8), .w32_i(w32), .k_and_i(k_and),
                .sext_i(sext), .sflip_i(sflip), .minimum_i(minimum), .num_i(num), .vbool_fold_i(vbool_fold),
                .predicated_i(predicated), .key_o(key), .act_o(act)
            );
            always @(posedge clk_i) begin
                in_key[32*w +: 32] <= key;
                in_act[4*w +: 4] <= act[3:0];
            end
        end
    endgenerate
    always @(posedge clk_i) begin
        in_ctrl <= ctrl;
        in_valid <= in_valid_i & rst_ni;
    end
    // Everything registered, folded onto the 96 result and mask bits.
    crosslane_stage_fold #(.N(629)) fold (
        .clk_i(clk_i), .held_i({in_ctrl, in_act, in_key}), .valid_i(in_valid),
        .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o)
    );
endmodule
