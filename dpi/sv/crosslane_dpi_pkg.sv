// crosslane: the golden model as SystemVerilog DPI-C imports. Link the C
// library libcrosslane_dpi (`cargo build --release -p crosslane-dpi`); the
// C declarations are in include/crosslane.h.
package crosslane_dpi_pkg;
  // Returned by crosslane_eval.
  localparam int CROSSLANE_OK = 0;
  localparam int CROSSLANE_EUNKNOWN_OP = -1;

  import "DPI-C" function int crosslane_op_count();
  import "DPI-C" function int crosslane_op_at(input int index);
  import "DPI-C" function string crosslane_op_name(input int code);
  import "DPI-C" function int crosslane_result_bits(input int code);
  import "DPI-C" function int crosslane_latency();
  import "DPI-C" function int crosslane_module_latency(input string module_name);
  // result and mask as the unit's result_o and mask_o carry them.
  import "DPI-C" function int crosslane_eval(input int code, input bit [511:0] vec, input longint unsigned vbool,
                                             output int unsigned result, output longint unsigned mask);
endpackage
