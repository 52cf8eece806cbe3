// An example testbench that scores crosslane_reduce against the golden model
// through DPI-C (crosslane_dpi_pkg). Random ops change every clock, in_valid
// has gaps, junk rides on inputs when in_valid is low, and the unit is reset
// in mid-stream with valid inputs in flight. After every clock the outputs
// are checked against a model of the pipeline: out_valid_o exactly when an
// input entered crosslane_latency() clocks before with no reset since, and
// then every bit of result_o and mask_o.
//
// The unit is crosslane_reduce, or the configuration named by
// +define+CROSSLANE_DUT=crosslane_reduce_every2 (or _every3) at compile
// time, its latency from crosslane_module_latency.
//
// Plusargs: +cycles=N (default 20000), +seed=N (default 1).
// Prints "crosslane_dpi_tb: PASS: N results checked ..." or FAIL lines;
// passed_o tells main.cpp the exit code.
`ifndef CROSSLANE_DUT
`define CROSSLANE_DUT crosslane_reduce
`endif
`define CROSSLANE_STRING(x) `"x`"
module crosslane_dpi_tb (input logic clk_i, output logic passed_o);
  import crosslane_dpi_pkg::*;

  localparam int MAX_LATENCY = 64;

  logic rst_ni = 1'b0;
  initial passed_o = 1'b0;
  logic in_valid_i = 1'b0;
  logic [8:0] op_i = '0;
  logic [511:0] vec_i = '0;
  logic [63:0] vbool_i = '0;
  wire out_valid_o;
  wire [31:0] result_o;
  wire [63:0] mask_o;

  `CROSSLANE_DUT dut (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .op_i(op_i), .vec_i(vec_i),
    .vbool_i(vbool_i), .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o)
  );

  // The pipeline model: what each stage holds after a clock.
  bit model_valid[MAX_LATENCY];
  int unsigned model_result[MAX_LATENCY];
  longint unsigned model_mask[MAX_LATENCY];
  int model_op[MAX_LATENCY];

  int latency, ops, cycles, cycle, checked, errors, resets, reset_left;
  int unsigned seed;
  bit valid;
  int unsigned r;
  longint unsigned m;

  initial begin
    latency = crosslane_module_latency(`CROSSLANE_STRING(`CROSSLANE_DUT));
    ops = crosslane_op_count();
    if (latency < 1 || latency > MAX_LATENCY || ops < 1) begin
      $display("crosslane_dpi_tb: FAIL: the DPI library reports latency %0d for %s and %0d ops", latency,
               `CROSSLANE_STRING(`CROSSLANE_DUT), ops);
      $finish;
    end
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 20000;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    void'($urandom(seed));
    cycle = 0; checked = 0; errors = 0; resets = 0; reset_left = 2;
  end

  // Inputs are driven and outputs read at the falling edge: the unit
  // samples at the rising edge in between.
  always @(negedge clk_i) begin
    // 1. What the rising edge just sampled enters the model.
    if (!rst_ni) begin
      for (int k = 0; k < MAX_LATENCY; k++) model_valid[k] = 1'b0;
    end else begin
      for (int k = MAX_LATENCY - 1; k > 0; k--) begin
        model_valid[k] = model_valid[k - 1];
        model_result[k] = model_result[k - 1];
        model_mask[k] = model_mask[k - 1];
        model_op[k] = model_op[k - 1];
      end
      model_valid[0] = in_valid_i;
      model_op[0] = int'(op_i);
      if (in_valid_i) begin
        if (crosslane_eval(int'(op_i), vec_i, vbool_i, r, m) != CROSSLANE_OK) begin
          $display("crosslane_dpi_tb: FAIL: the golden model does not know op %03h", op_i);
          errors++;
        end
        model_result[0] = r;
        model_mask[0] = m;
      end
    end
    // 2. The outputs after that edge against the model.
    if (out_valid_o !== model_valid[latency - 1]) begin
      errors++;
      if (errors <= 10)
        $display("crosslane_dpi_tb: FAIL: clock %0d: out_valid_o is %b, want %b", cycle, out_valid_o,
                 model_valid[latency - 1]);
    end else if (model_valid[latency - 1]) begin
      checked++;
      if (result_o !== model_result[latency - 1] || mask_o !== model_mask[latency - 1]) begin
        errors++;
        if (errors <= 10)
          $display("crosslane_dpi_tb: FAIL: clock %0d: %s: result_o %08h mask_o %016h, want %08h %016h", cycle,
                   crosslane_op_name(model_op[latency - 1]), result_o, mask_o, model_result[latency - 1],
                   model_mask[latency - 1]);
      end
    end
    // 3. The next inputs: a random op each clock, gaps with junk, resets.
    cycle++;
    if (cycle >= cycles) begin
      passed_o = (errors == 0 && checked > cycles / 2 && resets > 0);
      if (passed_o)
        $display("crosslane_dpi_tb: PASS: %0d results checked over %0d clocks, %0d mid-stream resets, %s, latency %0d",
                 checked, cycle, resets, `CROSSLANE_STRING(`CROSSLANE_DUT), latency);
      else
        $display("crosslane_dpi_tb: FAIL: %0d errors, %0d results checked over %0d clocks, %0d resets", errors,
                 checked, cycle, resets);
      $finish;
    end
    vec_i <= {$urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom,
              $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom};
    vbool_i <= {$urandom, $urandom};
    if (reset_left > 0) begin
      rst_ni <= 1'b0;
      in_valid_i <= 1'b1;  // in flight during a reset: must never come out
      op_i <= 9'(crosslane_op_at(int'($urandom_range(ops - 1))));
      reset_left--;
    end else begin
      rst_ni <= 1'b1;
      if ($urandom_range(999) < 2) begin  // about every 500 clocks
        reset_left = 1 + int'($urandom_range(1));
        resets++;
      end
      // One clock in four is a gap. Ops change every clock; a gap may carry
      // any 9-bit junk op.
      valid = ($urandom_range(3) != 0);
      in_valid_i <= valid;
      op_i <= (valid || $urandom_range(1) == 0) ? 9'(crosslane_op_at(int'($urandom_range(ops - 1)))) : 9'($urandom);
    end
  end
endmodule
