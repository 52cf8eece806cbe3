// One tree level of the unit alone, for the FPGA flow (flows/fpga.py,
// configuration "stage:level3"): the s2 register, level 3's node controls
// and its 8 tree nodes (each comparing its children) and the s3 register of
// crosslane_reduce (the default configuration,
// generated/rtl/crosslane_reduce.v, whose component modules it instantiates), with
// the same ports as the unit. The s2 register is loaded from the ports:
// values from vec_i, the 4 live mask bits of each level-2 node from
// vbool_i, the control word from the op decoder, as in the unit. The
// registered level-3 values and masks are folded by XOR, in a second
// register (flows/stage_fold.v), onto result_o / mask_o, so that synthesis keeps all of the
// stage. Its Fmax is what one level of the tree allows in a stage of its
// own with the rest of the unit out of the way: an upper bound on the
// Fmax of any configuration built from these nodes. Not part of the IP.
`timescale 1ns / 1ps
module crosslane_level_stage (
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
    crosslane_op_decode in_dec (.op_i(op_i), .ctrl_o(ctrl), .leaf_o(leaf));
    // The s2 register: 16 level-2 values, their masks (4 live bits each), the control word, valid.
    reg [511:0] s2_val;
    reg [63:0] s2_mask;
    reg [52:0] s2_ctrl;
    reg s2_valid = 1'b0;
    always @(posedge clk_i) begin
        s2_val <= vec_i;
        s2_mask <= vbool_i;
        s2_ctrl <= ctrl;
        s2_valid <= in_valid_i & rst_ni;
    end
    wire pass, sum, max, and_, or_, xor_;
    crosslane_node_controls #(.pass_at(6'b11101), .sum_at(6'b11110), .max_at(6'b11111), .and_at(6'b100000),
        .or_at(6'b100001), .xor_at(6'b100010)) l3_ctl (
        .ctrl_i(s2_ctrl), .pass_o(pass), .sum_o(sum), .max_o(max), .and_o(and_), .or_o(or_), .xor_o(xor_)
    );
    // Level 3 and the s3 register: 8 values, their masks (8 live bits each).
    reg [255:0] s3_val;
    reg [63:0] s3_mask;
    reg s3_valid = 1'b0;
    genvar n;
    generate
        for (n = 0; n < 8; n = n + 1) begin : g_node
            wire [31:0] val;
            wire [63:0] mask;
            crosslane_tree_node #(.given_compare(1'b0), .child_bits(32'h0), .child_slots(64'h4),
                .live(32'hffffffff)) l3 (
                .a_i(s2_val[64*n +: 32]), .b_i(s2_val[64*n+32 +: 32]),
                .ma_i({60'd0, s2_mask[8*n +: 4]}), .mb_i({60'd0, s2_mask[8*n+4 +: 4]}),
                .pass_i(pass), .sum_i(sum), .max_i(max), .and_i(and_), .or_i(or_), .xor_i(xor_),
                .b_wins_i(1'b0), .a_wins_i(1'b0), .val_o(val), .mask_o(mask)
            );
            always @(posedge clk_i) begin
                s3_val[32*n +: 32] <= val;
                s3_mask[8*n +: 8] <= mask[7:0];
            end
        end
    endgenerate
    always @(posedge clk_i) s3_valid <= s2_valid & rst_ni;
    // Everything registered, folded onto the 96 result and mask bits.
    crosslane_stage_fold #(.N(320)) fold (
        .clk_i(clk_i), .held_i({s3_mask, s3_val}), .valid_i(s3_valid),
        .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o)
    );
endmodule
