// {{ header }}
//
// Self-checking testbench of crosslane_reduce. It is synchronous (no delays),
// so one file runs under Icarus (crosslane_reduce_tb_icarus.sv makes the
// clock) and under Verilator (crosslane_reduce_tb_verilator.cpp makes it).
//
// Vector records, one hex word per line ($readmemh), {{ record_bits }} bits:
//   [{{ record_bits - 1 }}:{{ record_bits - 16 }}] op (low 9 bits: op_i)   [{{ record_bits - 17 }}:{{ record_bits - 80 }}] vbool
//   [607:96] vec   [95:64] expected result_o   [63:0] expected mask_o
//
// Plusargs: +vectors=FILE +count=N (records to read, at most MAX_VECTORS)
//   +mode=check  phase 1 drives a vector every clock, phase 2 drives the
//                same vectors with pseudo-random valid gaps; every result and
//                mask is checked exactly LATENCY clocks after its input and
//                out_valid_o is checked every clock. Prints at most
//                MAX_SHOWN errors, then "N passed, M failed" as its last line.
//   +mode=dump +out=FILE  phase 1 only; writes "result mask" per vector.
//   +mode=ext    the DUT's inputs come from the ext_* ports (a C++ driver).
// `done` rises when the run is over; `failed` is high unless at least one
// vector was checked and none failed.
module crosslane_reduce_tb (
    input  wire         clk,
    input  wire         ext_valid,
    input  wire [8:0]   ext_op,
    input  wire [511:0] ext_vec,
    input  wire [63:0]  ext_vbool,
    output wire         dut_valid,
    output wire [31:0]  dut_result,
    output wire [63:0]  dut_mask,
    output reg          done,
    output reg          failed
);
    localparam integer LATENCY = {{ latency }};
    localparam integer MAX_VECTORS = {{ max_vectors }};
    localparam integer MAX_SHOWN = {{ max_shown }};
    localparam integer RESET_CLOCKS = 2;

    reg [{{ record_bits - 1 }}:0] mem [0:MAX_VECTORS-1];
    integer count;
    integer mode;  // 0 check, 1 dump, 2 ext
    integer out_fd;
    reg [8*256-1:0] path;

    reg         rst_ni;
    reg         in_valid;
    reg [8:0]   op;
    reg [511:0] vec;
    reg [63:0]  vbool;

    crosslane_reduce dut (
        .clk_i(clk),
        .rst_ni(mode == 2 ? 1'b1 : rst_ni),
        .in_valid_i(mode == 2 ? ext_valid : in_valid),
        .op_i(mode == 2 ? ext_op : op),
        .vec_i(mode == 2 ? ext_vec : vec),
        .vbool_i(mode == 2 ? ext_vbool : vbool),
        .out_valid_o(dut_valid),
        .result_o(dut_result),
        .mask_o(dut_mask)
    );

    // What was presented at each of the last 16 rising edges.
    reg        hist_v [0:15];
    integer    hist_i [0:15];
    integer    cycle;   // rising edges since reset ended
    integer    reset_left;
    integer    phase;   // 1 back to back, 2 with gaps, 3 drain
    integer    next;    // next vector to present
    integer    drain;
    integer    passed;
    integer    errors;
    reg [15:0] lfsr;
    integer    k;

    initial begin
        done = 1'b0;
        failed = 1'b1;
        mode = 0;
        count = 0;
        out_fd = 0;
        if ($test$plusargs("mode=dump")) mode = 1;
        if ($test$plusargs("mode=ext")) mode = 2;
        if (mode != 2) begin
            if (!$value$plusargs("vectors=%s", path)) begin
                $display("crosslane_reduce_tb: missing +vectors=FILE");
                $display("0 passed, 1 failed");
                done = 1'b1;
            end else begin
                if (!$value$plusargs("count=%d", count)) count = 0;
                if (count > MAX_VECTORS) count = MAX_VECTORS;
                if (count > 0) $readmemh(path, mem, 0, count - 1);
            end
        end
        if (mode == 1) begin
            if ($value$plusargs("out=%s", path)) out_fd = $fopen(path, "w");
            if (out_fd == 0) begin
                $display("crosslane_reduce_tb: cannot open +out=FILE");
                done = 1'b1;
            end
        end
        for (k = 0; k < 16; k = k + 1) begin
            hist_v[k] = 1'b0;
            hist_i[k] = 0;
        end
        rst_ni = 1'b0;
        in_valid = 1'b0;
        op = 9'h0;
        vec = 512'h0;
        vbool = 64'h0;
        cycle = 0;
        reset_left = RESET_CLOCKS;
        phase = 1;
        next = 0;
        drain = 0;
        passed = 0;
        errors = 0;
        lfsr = 16'hace1;
    end

    // Outputs settle after the rising edge; check them and present the
    // next inputs on the falling edge.
    always @(negedge clk) begin
        if (!done && mode != 2) begin
            if (reset_left > 0) begin
                reset_left = reset_left - 1;
                rst_ni = reset_left == 0;
            end else begin
                check_outputs();
                cycle = cycle + 1;
                present_next();
            end
        end
    end

    task check_outputs;
        integer slot;
        reg [{{ record_bits - 1 }}:0] r;
        begin
            slot = (cycle + 16 - (LATENCY - 1)) % 16;
            if (cycle >= LATENCY - 1 && hist_v[slot]) begin
                r = mem[hist_i[slot]];
                if (mode == 1) begin
                    $fwrite(out_fd, "%h %h\n", dut_result, dut_mask);
                    passed = passed + 1;
                end else if (dut_valid !== 1'b1 || dut_result !== r[95:64] || dut_mask !== r[63:0]) begin
                    errors = errors + 1;
                    if (errors <= MAX_SHOWN)
                        $display("ERROR vector %0d (op %h, clock %0d): got valid %b result %h mask %h, want result %h mask %h",
                                 hist_i[slot], r[{{ record_bits - 8 }}:{{ record_bits - 16 }}], cycle, dut_valid, dut_result, dut_mask,
                                 r[95:64], r[63:0]);
                    if (errors == MAX_SHOWN + 1) $display("(further errors not shown)");
                end else begin
                    passed = passed + 1;
                end
            end else if (dut_valid !== 1'b0) begin
                errors = errors + 1;
                if (errors <= MAX_SHOWN)
                    $display("ERROR clock %0d: out_valid_o is %b with no input LATENCY clocks before", cycle, dut_valid);
            end
        end
    endtask

    task present_next;
        integer slot;
        reg [{{ record_bits - 1 }}:0] r;
        reg give;
        begin
            give = 1'b0;
            if (phase == 1 || phase == 2) begin
                give = 1'b1;
                if (phase == 2) begin
                    lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
                    give = lfsr[1:0] != 2'b00;
                end
            end
            slot = cycle % 16;
            hist_v[slot] = give && next < count;
            hist_i[slot] = next;
            if (give && next < count) begin
                r = mem[next];
                in_valid = 1'b1;
                op = r[{{ record_bits - 8 }}:{{ record_bits - 16 }}];
                vbool = r[{{ record_bits - 17 }}:{{ record_bits - 80 }}];
                vec = r[607:96];
                next = next + 1;
            end else begin
                in_valid = 1'b0;
            end
            if ((phase == 1 || phase == 2) && next >= count) begin
                if (phase == 1 && mode == 0) begin
                    phase = 2;
                    next = 0;
                end else begin
                    phase = 3;
                end
            end else if (phase == 3) begin
                drain = drain + 1;
                if (drain > LATENCY + 1) finish_run();
            end
        end
    endtask

    task finish_run;
        begin
            if (mode == 1) $fclose(out_fd);
            failed = !(passed > 0 && errors == 0);
            $display("%0d passed, %0d failed", passed, errors);
            done = 1'b1;
        end
    endtask
endmodule
