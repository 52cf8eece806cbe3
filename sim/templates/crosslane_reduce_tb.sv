// {{ header }}
//
// Self-checking testbench of the crosslane_reduce configurations (parameter
// EVERY selects one:{% for c in configs %} {{ c.every }} = {{ c.module }}, latency {{ c.latency }};{% endfor %}
// any other value fails the run; FAST = 1 runs the configuration's fast
// simulation form, crosslane_reduce*_fast, instead). It is synchronous (no delays),
// so one file runs under Icarus (crosslane_reduce_tb_icarus.sv makes the
// clock) and under Verilator (crosslane_reduce_tb_verilator.cpp makes it).
//
// Vector records, one hex word per line ($readmemh), {{ record_bits }} bits:
//   [{{ record_bits - 1 }}:{{ record_bits - 16 }}] op (low 9 bits: op_i)   [{{ record_bits - 17 }}:{{ record_bits - 80 }}] vbool
//   [607:96] vec   [95:64] expected result_o   [63:0] expected mask_o
//
// Plusargs: +vectors=FILE (every record in it is run; at most MAX_VECTORS;
//   a missing, malformed or empty file, or too many records, fails the run)
//   +mode=check  phase 1 drives a vector every clock, phase 2 drives the
//                same vectors with pseudo-random valid gaps; every result and
//                mask is checked exactly LATENCY clocks after its input and
//                out_valid_o is checked every clock. Prints at most
//                MAX_SHOWN errors, then "N passed, M failed" as its last line.
//   +mode=dump +out=FILE  phase 1 only; writes "valid result mask" per
//                vector (out_valid_o high at any other clock is an error).
//   +mode=ext    the DUT's inputs come from the ext_* ports (a C++ driver),
//                taken at the falling edge like every other mode's.
// `done` rises when the run is over; `failed` is high unless at least one
// vector was checked and none failed.
module crosslane_reduce_tb #(
    parameter integer EVERY = 1,
    parameter integer FAST = 0
) (
    input  wire         clk,
    input  wire         ext_rst_n,
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
    localparam integer LATENCY ={% for c in configs %} EVERY == {{ c.every }} ? {{ c.latency }} :{% endfor %} 0;
    localparam integer MAX_VECTORS = {{ max_vectors }};
    localparam integer MAX_SHOWN = {{ max_shown }};
    localparam integer RESET_CLOCKS = 2;
    // Every RESET_EVERY vectors: drain the pipeline (LATENCY idle clocks),
    // present LATENCY - 1 sacrificial valid inputs so every stage holds one,
    // then hold rst_ni low for a clock with one more: none may come out.
    localparam integer RESET_EVERY = {{ reset_every }};

    localparam integer RECORD_DIGITS = {{ record_bits / 4 }};
    localparam integer PATH_CHARS = 1000;

    reg [{{ record_bits - 1 }}:0] mem [0:MAX_VECTORS-1];
    integer count;
    integer mode;  // 0 check, 1 dump, 2 ext
    integer out_fd;
    reg [8*PATH_CHARS-1:0] path;
    reg [8*512-1:0] line;

    reg         rst_ni;
    reg         in_valid;
    reg [8:0]   op;
    reg [511:0] vec;
    reg [63:0]  vbool;

    // The DUT's inputs change only at the falling edge, in every mode, so
    // that a Verilated model runs the unit's input logic once a clock (logic
    // fed by the model's own ports runs again at every eval(), twice a
    // clock: docs/performance.md).
    wire dut_rst_ni = rst_ni;
    wire dut_in_valid = in_valid;
    wire [8:0] dut_op = op;
    wire [511:0] dut_vec = vec;
    wire [63:0] dut_vbool = vbool;
    // The configuration is picked by the wrapper every integrator may use.
    crosslane_reduce_top #(.EVERY(EVERY), .FAST(FAST)) dut (
        .clk_i(clk), .rst_ni(dut_rst_ni), .in_valid_i(dut_in_valid), .op_i(dut_op), .vec_i(dut_vec),
        .vbool_i(dut_vbool), .out_valid_o(dut_valid), .result_o(dut_result), .mask_o(dut_mask)
    );

    // What was presented at each of the last 16 rising edges.
    reg        hist_v [0:15];
    integer    hist_i [0:15];
    integer    cycle;   // rising edges since reset ended
    integer    reset_left;
    integer    phase;   // 1 back to back, 2 with gaps, 3 drain
    integer    next;    // next vector to present
    integer    drain;
    integer    plan;        // clocks left in a mid-stream reset sequence
    integer    reset_at;    // `next` at the last mid-stream reset
    integer    resets;
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
        if (LATENCY == 0) begin
            $display("crosslane_reduce_tb: no configuration has EVERY = %0d", EVERY);
            done = 1'b1;
        end
        if (mode != 2) load_vectors();
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
        plan = 0;
        reset_at = -1;
        resets = 0;
    end

    // Outputs settle after the rising edge; check them and present the
    // next inputs on the falling edge.
    always @(negedge clk) begin
        if (mode == 2) begin
            rst_ni = ext_rst_n;
            in_valid = ext_valid;
            op = ext_op;
            vec = ext_vec;
            vbool = ext_vbool;
        end else if (!done) begin
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

    // Stop before any vector runs: the message, then a failing summary.
    task refuse(input [8*120-1:0] why);
        begin
            $display("crosslane_reduce_tb: %0s", why);
            $display("0 passed, 1 failed");
            done = 1'b1;
        end
    endtask

    // Read +vectors=FILE: every line is a record of exactly RECORD_DIGITS
    // hex digits, a `//` comment, or empty. The record count is the file's;
    // a missing, unreadable, empty or malformed file, more than MAX_VECTORS
    // records, or a path of PATH_CHARS characters or more is refused.
    task load_vectors;
        integer fd, n, k, first, last, lineno;
        reg [7:0] ch;
        reg [3:0] nib;
        reg ok;
        reg [4*RECORD_DIGITS-1:0] rec;
        reg [8*RECORD_DIGITS-1:0] text, back;
        begin
            path = 0;
            if (!$value$plusargs("vectors=%s", path)) begin
                refuse("missing +vectors=FILE");
            end else if (path[8*PATH_CHARS-1 -: 8] != 8'h00) begin
                refuse("the +vectors path is too long (1000 characters or more)");
            end else begin
                fd = $fopen(path, "r");
                if (fd == 0) begin
                    $display("crosslane_reduce_tb: cannot open the vectors file %0s", path);
                    refuse("no vectors");
                end else begin
                    lineno = 0;
                    while (!done && !$feof(fd)) begin
                        line = 0;
                        n = $fgets(line, fd);
                        lineno = lineno + 1;
                        // The line sits in the low n bytes, its last character lowest.
                        last = 0;
                        while (n > last && (line[8*last +: 8] == 8'h0a || line[8*last +: 8] == 8'h0d)) last = last + 1;
                        first = n - 1;
                        if (n <= last) begin
                            // empty line
                        end else if (line[8*first +: 8] == "/" && n - last >= 2 && line[8*(first-1) +: 8] == "/") begin
                            // comment
                        end else if (n - last != RECORD_DIGITS) begin
                            $display("crosslane_reduce_tb: vectors line %0d has %0d characters, want %0d hex digits", lineno, n - last, RECORD_DIGITS);
                            refuse("malformed vectors file");
                        end else if (count >= MAX_VECTORS) begin
                            $display("crosslane_reduce_tb: more than %0d records in the vectors file", MAX_VECTORS);
                            refuse("too many records: split the file");
                        end else begin
                            // The record read as one hex number, kept when printing it
                            // back gives the line (lower-case digits, no x or z); any
                            // other line is read digit by digit below, which refuses
                            // what is not hex. (Icarus spent a third of a run here.)
                            text = line[8*last +: 8*RECORD_DIGITS];
                            rec = 0;
                            back = 0;
                            if ($sscanf(text, "%h", rec) == 1) $sformat(back, "%h", rec);
                            ok = back == text && ^rec !== 1'bx;
                            if (ok) mem[count] = rec;
                            else begin
                            ok = 1'b1;
                            for (k = 0; k < RECORD_DIGITS; k = k + 1) begin
                                ch = line[8*(last + k) +: 8];
                                if (ch >= "0" && ch <= "9") nib = ch - "0";
                                else if (ch >= "a" && ch <= "f") nib = ch - "a" + 10;
                                else if (ch >= "A" && ch <= "F") nib = ch - "A" + 10;
                                else begin
                                    nib = 0;
                                    ok = 1'b0;
                                end
                                mem[count][4*k +: 4] = nib;
                            end
                            end
                            if (!ok) begin
                                $display("crosslane_reduce_tb: vectors line %0d is not hex", lineno);
                                refuse("malformed vectors file");
                            end
                            count = count + 1;
                        end
                    end
                    $fclose(fd);
                    if (!done && count == 0) refuse("the vectors file holds no record");
                end
            end
        end
    endtask

    task check_outputs;
        integer slot;
        reg [{{ record_bits - 1 }}:0] r;
        begin
            slot = (cycle + 16 - (LATENCY - 1)) % 16;
            if (cycle >= LATENCY - 1 && hist_v[slot]) begin
                if (mode == 1) begin
                    $fwrite(out_fd, "%b %h %h\n", dut_valid, dut_result, dut_mask);
                    passed = passed + 1;
                end else if (dut_valid !== 1'b1 || dut_result !== mem[hist_i[slot]][95:64]
                             || dut_mask !== mem[hist_i[slot]][63:0]) begin
                    r = mem[hist_i[slot]];
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
        begin
            rst_ni = 1'b1;
            if (plan == 0 && (phase == 1 || phase == 2) && next > 0 && next < count
                    && next % RESET_EVERY == 0 && next != reset_at) begin
                plan = 2 * LATENCY;
                reset_at = next;
                resets = resets + 1;
            end
            if (plan > 0) begin
                slot = cycle % 16;
                hist_v[slot] = 1'b0;
                in_valid = plan <= LATENCY;
                rst_ni = plan != 1;
                plan = plan - 1;
            end else begin
                present_vector();
            end
        end
    endtask

    task present_vector;
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
            $display("mid-stream resets: %0d", resets);
            $display("%0d passed, %0d failed", passed, errors);
            done = 1'b1;
        end
    endtask
endmodule
