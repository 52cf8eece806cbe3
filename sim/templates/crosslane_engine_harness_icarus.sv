// {{ header }}
// The Icarus harness of {{ module }}, the CrossLaneReduce engine: the same SBUF
// and the same line protocol on stdin as the Verilator harness
// (crosslane_engine_harness.cpp, which documents it), in SystemVerilog.
// `crosslane exec --engine icarus` builds and drives it (docs/engine.md); by hand:
//   iverilog -g2012 -s {{ module }}_harness_icarus -o h.vvp rtl/crosslane_engine.v \
//       tb/crosslane_engine_harness_icarus.sv
//   vvp -n h.vvp < requests          # +vcd=<file> dumps the run's waves
// A W line carries at most 64 bytes here (the Rust driver cuts writes so).
// At the end of input `end ok` (or `end fail <why>`) as the Verilator harness; a
// malformed line stops the run with a message on stderr and no answer.
`timescale 1ns / 1ps
module {{ module }}_harness_icarus;
    reg clk_i = 1'b0;
    reg rst_ni = 1'b0;
    reg [21:0] pb_i = 22'd0;
    reg inst_valid_i = 1'b0;
    reg rd_ready_i = 1'b1;
    reg [511:0] inst_i = 512'd0;
    reg [{{ lanes }}*512-1:0] rd_data_i = '0;
    wire [{{ lanes }}-1:0] rd_valid_o;
    wire inst_ready_o, done_o, accepted_o, wr_valid_o;
    wire [3:0] rule_o;
    wire [6:0] rd_partition_o, wr_partition_o;
    wire [14:0] rd_row_o, wr_row_o;
    wire [511:0] wr_data_o;
    wire [63:0] wr_strb_o;

    {{ module }} dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .pb_i(pb_i),
        .inst_valid_i(inst_valid_i), .inst_i(inst_i), .inst_ready_o(inst_ready_o),
        .done_o(done_o), .accepted_o(accepted_o), .rule_o(rule_o),
        .rd_valid_o(rd_valid_o), .rd_ready_i(rd_ready_i), .rd_partition_o(rd_partition_o), .rd_row_o(rd_row_o), .rd_data_i(rd_data_i),
        .wr_valid_o(wr_valid_o), .wr_partition_o(wr_partition_o), .wr_row_o(wr_row_o),
        .wr_data_o(wr_data_o), .wr_strb_o(wr_strb_o)
    );

    // The SBUF: 128 partitions of `rows_per` 64-byte rows, byte b of a row in
    // bits 8b+7..8b (as on the ports). Rows touched by a case are zeroed
    // before the next; past `TOUCH_MAX` of them, every row is.
    localparam int TOUCH_MAX = 1 << 16;
    reg [511:0] sbuf [];
    int touched [0:TOUCH_MAX-1];
    int n_touched = 0;
    longint pb = 0;
    int rows_per = 0;
    longint clocks = 0;
    bit executing = 1'b0;
    string fault = "";
    // Reads taken since the instruction was: a write before the first is never the instruction's.
    longint reads_taken = 0;
    // The read port's stalls: percent of clocks, and the xorshift32 state
    // (the Verilator harness's, seeded afresh each case).
    int stall = 0;
    reg [31:0] rng = 32'd1;
    localparam [31:0] STALL_SEED = 32'h{{ stall_seed }};
    // The clocks the engine may keep inst_ready_o low before an instruction.
    localparam int READY_CLOCKS = {{ ready_clocks }};

    function automatic bit read_ready;
        if (stall == 0) return 1'b1;
        rng = rng ^ (rng << 13);
        rng = rng ^ (rng >> 17);
        rng = rng ^ (rng << 5);
        return rng % 100 >= stall;
    endfunction

    task automatic touch(input int index);
        if (n_touched < TOUCH_MAX) touched[n_touched] = index;
        n_touched = n_touched + 1;
    endtask

    // One clock: the inputs are set, the rising edge, then the SBUF's edge.
    task automatic tick;
        reg [{{ lanes }}-1:0] rd;
        reg [{{ lanes }}*512-1:0] rows;
        reg wr;
        reg [6:0] rp, wp;
        reg [14:0] rr, wrow;
        reg [511:0] wdata, row;
        reg [63:0] strb;
        int b;
        rd_ready_i = read_ready();
        #1;
        rd = rd_ready_i ? rd_valid_o : '0; wr = wr_valid_o;
        if (rd != 0) reads_taken = reads_taken + 1;
        rp = rd_partition_o; rr = rd_row_o; wp = wr_partition_o; wrow = wr_row_o;
        wdata = wr_data_o; strb = wr_strb_o;
        clk_i = 1'b1;
        #1;
        clocks = clocks + 1;
        // A read returns the row as it was before this edge's write.
        // Lanes not read this clock: junk.
        rows = {({{ lanes }} * 64){8'h{{ junk }}}};
        for (b = 0; b < {{ lanes }}; b = b + 1)
            if (rd[b]) begin
                if (rp + b < 128 && rr * 64 < pb) begin
                    row = sbuf[(rp + b) * rows_per + rr];
                    rows[512*b +: 512] = row;
                end else begin
                    fault = "a read outside the SBUF";
                end
            end
        if (wr && !executing) fault = "a write between instructions";
        if (wr && executing && reads_taken == 0) fault = "a write before the instruction's first read";
        if (wr) begin
            if (wp < 128 && wrow * 64 < pb) begin
                reg [511:0] old;
                old = sbuf[wp * rows_per + wrow];
                for (b = 0; b < 64; b = b + 1)
                    if (strb[b]) begin
                        if (wrow * 64 + b >= pb) fault = "a write outside the SBUF";
                        else old[8*b +: 8] = wdata[8*b +: 8];
                    end
                sbuf[wp * rows_per + wrow] = old;
                touch(wp * rows_per + wrow);
            end else begin
                fault = "a write outside the SBUF";
            end
        end
        rd_data_i = rows;
        clk_i = 1'b0;
    endtask

    task automatic malformed(input string what);
        $fdisplay(32'h8000_0002, "malformed: %s", what);
        $finish;
    endtask

    int fd, got, i, b, p, off, len, n;
    longint size, limit, start, cycles;
    string kind, id, hexs, answer;
    reg [511:0] v, row;
    reg [7:0] byte_v;
    string vcd;
    bit waiting;

    initial begin
        if ($value$plusargs("vcd=%s", vcd)) begin
            $dumpfile(vcd);
            $dumpvars(0, dut);
        end
        repeat (4) tick;
        rst_ni = 1'b1;
        tick;
        fd = $fopen("/dev/stdin", "r");
        if (fd == 0) malformed("cannot open /dev/stdin");
        while ($fscanf(fd, " %s", kind) == 1) begin
            if (kind == "C") begin
                got = $fscanf(fd, "%s %d %d", id, size, stall);
                if (got != 3 || size == 0 || size > (1 << 21) || stall < 0 || stall > 100) malformed("a C line");
                rng = STALL_SEED;
                if (size != pb) begin
                    pb = size;
                    rows_per = (pb + 63) / 64;
                    sbuf = new[128 * rows_per];
                    for (i = 0; i < 128 * rows_per; i = i + 1) sbuf[i] = 512'd0;
                end else if (n_touched > TOUCH_MAX) begin
                    for (i = 0; i < 128 * rows_per; i = i + 1) sbuf[i] = 512'd0;
                end else begin
                    for (i = 0; i < n_touched; i = i + 1) sbuf[touched[i]] = 512'd0;
                end
                n_touched = 0;
                answer = "";
                fault = "";
            end else if (kind == "W") begin
                got = $fscanf(fd, "%d %d %s", p, off, hexs);
                n = hexs.len() / 2;
                if (got != 3 || hexs.len() % 2 != 0 || n > 64 || p < 0 || p >= 128 || off < 0 || off + n > pb)
                    malformed("a W line");
                v = 512'd0;
                got = $sscanf(hexs, "%h", v);
                for (i = 0; i < n; i = i + 1) begin
                    // hex digit pair i (memory order) is byte n-1-i of the number
                    byte_v = v[8 * (n - 1 - i) +: 8];
                    row = sbuf[p * rows_per + (off + i) / 64];
                    row[8 * ((off + i) % 64) +: 8] = byte_v;
                    sbuf[p * rows_per + (off + i) / 64] = row;
                    touch(p * rows_per + (off + i) / 64);
                end
            end else if (kind == "I") begin
                got = $fscanf(fd, "%s %d", hexs, limit);
                if (got != 2 || hexs.len() != 128) malformed("an I line");
                v = 512'd0;
                got = $sscanf(hexs, "%h", v);
                // Wait for ready (a while), present the instruction for one taking edge.
                for (i = 0; i < READY_CLOCKS && !inst_ready_o; i = i + 1) tick;
                if (!inst_ready_o) fault = $sformatf("inst_ready_o low for %0d clocks", READY_CLOCKS);
                pb_i = pb[21:0];
                for (b = 0; b < 64; b = b + 1) inst_i[8*b +: 8] = v[8 * (63 - b) +: 8];
                inst_valid_i = fault == "";
                executing = 1'b1;
                reads_taken = 0;
                tick;
                inst_valid_i = 1'b0;
                start = clocks;
                waiting = fault == "";
                while (waiting) begin
                    #1;
                    if (done_o) begin
                        waiting = 1'b0;
                    end else if (clocks - start > limit) begin
                        fault = $sformatf("no done_o in %0d clocks", limit);
                        waiting = 1'b0;
                    end else begin
                        tick;
                    end
                end
                cycles = clocks - start + 1;
                // Every write is issued before done_o: none in its clock.
                if (done_o && wr_valid_o && fault == "") fault = "a write in the done_o clock";
                executing = 1'b0;
                if (fault != "") answer = {" fail ", fault};
                else if (accepted_o) answer = $sformatf(" ok %0d", cycles);
                else answer = $sformatf(" reject %0d %0d", rule_o, cycles);
                if (fault != "") begin
                    // The engine broke the protocol: reset, so the next case starts clean.
                    rst_ni = 1'b0;
                    repeat (4) tick;
                    rst_ni = 1'b1;
                    tick;
                end
                // Else the engine stays in the done clock: the next instruction is taken in it.
            end else if (kind == "R") begin
                got = $fscanf(fd, "%d %d %d", p, off, len);
                if (got != 3 || p < 0 || p >= 128 || off < 0 || len < 0 || off + len > pb) malformed("an R line");
                if (answer.substr(0, 2) == " ok") begin
                    answer = {answer, " "};
                    for (i = 0; i < len; i = i + 1) begin
                        row = sbuf[p * rows_per + (off + i) / 64];
                        answer = {answer, $sformatf("%02x", row[8 * ((off + i) % 64) +: 8])};
                    end
                end
            end else if (kind == "E") begin
                $display("%s%s", id, answer);
                $fflush();
            end else begin
                malformed(kind);
            end
        end
        // After the last done_o: nothing may be written.
        repeat ({{ after_last }}) begin
            tick;
            #1;
            if (wr_valid_o) begin
                $display("end fail a write after the last instruction's done_o");
                $finish;
            end
        end
        $display("end ok");
        $finish;
    end
endmodule
