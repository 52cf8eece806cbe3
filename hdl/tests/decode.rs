//! The op decoder's operation: for every op of the golden table, the
//! controls it drives agree with the op's fold, form and identity.

use crosslane_golden::{Family, Fold, Form, Op};
use crosslane_hdl::decode::OpDecode;
use rust_hdl::prelude::*;

#[test]
fn decoder_synthesizes() {
    let mut uut = OpDecode::default();
    uut.connect_all();
    check_all(&uut).expect("rust-hdl checks");
    let vlog = generate_verilog(&uut);
    assert!(vlog.contains("module top"));
}

#[test]
fn every_op_decodes_to_its_fold_and_form() {
    let mut uut = OpDecode::default();
    uut.connect_all();
    for op in Op::all() {
        uut.op_i.next = (op.code() as u64).into();
        assert!(simulate(&mut uut, 20), "decoder settles");
        let row = format!("{} (code {:#05x})", op.name(), op.code());
        let fold = op.family.fold();
        assert_eq!(uut.k_sum_o.val(), matches!(fold, Fold::Sum { .. }), "k_sum {row}");
        assert_eq!(uut.k_max_o.val(), matches!(fold, Fold::Extremum { .. } | Fold::Num { .. }), "k_max {row}");
        assert_eq!(uut.k_and_o.val(), fold == Fold::And, "k_and {row}");
        assert_eq!(uut.k_or_o.val(), fold == Fold::Or, "k_or {row}");
        assert_eq!(uut.k_xor_o.val(), fold == Fold::Xor, "k_xor {row}");
        assert_eq!(uut.sext_o.val(), matches!(fold, Fold::Sum { signed: true, .. }), "sext {row}");
        assert_eq!(uut.saturate_o.val(), op.family == Family::AddS, "saturate {row}");
        assert_eq!(uut.has_mask_o.val(), op.family.has_mask(), "has_mask {row}");
        assert_eq!(uut.num_o.val(), matches!(fold, Fold::Num { .. }), "num {row}");
        assert_eq!(uut.vbool_fold_o.val(), op.family.is_vbool_fold(), "vbool_fold {row}");
        assert_eq!(uut.predicated_o.val(), op.predicated, "predicated {row}");
        assert_eq!(uut.lane_mask_o.val().to_u64(), op.form.lane_mask() as u64, "lane_mask {row}");
        assert_eq!(uut.sign_bit_o.val().to_u64(), 1u64 << (op.form.lane_bits() - 1), "sign_bit {row}");
        assert_eq!(uut.lane_starts_o.val().to_u64(), op.form.full_vbool(), "lane_starts {row}");
        assert_eq!(uut.form_h16_o.val(), op.form.lane_bits() == 16, "form_h16 {row}");
        assert_eq!(uut.form_w32_o.val(), op.form.lane_bits() == 32, "form_w32 {row}");
        // The leaf identity: all ones for and-folds, else 0 (keys of 0 never win).
        assert_eq!(uut.ident_o.val().to_u64(), if fold == Fold::And { 0xffff_ffff } else { 0 }, "ident {row}");
        if matches!(op.form, Form::F16 | Form::F32) {
            assert_eq!(uut.qnan_o.val().to_u64(), op.identity() as u64, "qnan {row}");
        }
    }
}
