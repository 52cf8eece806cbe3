// {{ header }}
// The Verilator harness of {{ module }}, the CrossLaneReduce engine: it holds
// the SBUF (128 partitions, each a bank with one read and one write a clock;
// rd_valid_o bit j reads partition rd_partition_o + j, its row on rd_data_i's
// lane j {{ read_latency }} clock after the request) and runs instructions
// given as lines on stdin. `crosslane exec --engine verilator` builds and
// drives it (docs/engine.md); by hand:
//   verilator --cc --exe --build --top-module {{ module }} <the engine's rtl files> \
//       crosslane_engine_harness.cpp
// Input, one request a line:
//   C <id> <partition_bytes> <stall> a case: the SBUF zeroed at this size; the read
//                                   port stalls (rd_ready_i low) in <stall> % of its
//                                   clocks, drawn by xorshift32 seeded afresh each case
//   W <partition> <offset> <hex>    bytes written before the instruction
//   I <128 hex digits> <clocks>     the instruction, run to done_o (a fail after <clocks>)
//   R <partition> <offset> <len>    a region read after it
//   E                               the end of the case: its answer is printed
// Output, a line a case: `<id> ok <cycles> <hex> <hex> ...` (accepted; cycles from
// the clock the instruction was taken to done_o), `<id> reject <rule> <cycles>`, or
// `<id> fail <why>` (no done_o in time, a write in done_o's clock, between instructions or
// before the instruction's first read, an access outside the SBUF, a lane read it did not ask for).
// A read is taken in a clock rd_ready_i is high; lanes not read this clock return junk.
// The engine is reset at the start and after a fail; instructions follow back to back: the next
// one is on inst_i in the clock done_o is high, no idle clock between (so a write of the
// last instruction after its done_o is one before the next's first read). At the end of
// input, `end ok` after {{ after_last }} clocks without a write, else `end fail <why>`; exit 0 (ok),
// 2 on a malformed line, 3 on a write after the last instruction's done_o.
#include "V{{ module }}.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static V{{ module }}* m;
static uint64_t clocks = 0;
static size_t pb = 0;
// Partitions are laid out in whole rows: pitch = pb rounded up to 64.
static size_t pitch = 0;
static std::vector<uint8_t> sbuf;
static std::vector<uint32_t> rows_touched;  // partition << 16 | row, to zero after the case

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool unhex(const char* s, std::vector<uint8_t>& out) {
    out.clear();
    size_t n = strlen(s);
    if (n % 2) return false;
    for (size_t i = 0; i < n; i += 2) {
        int a = hexval(s[i]), b = hexval(s[i + 1]);
        if (a < 0 || b < 0) return false;
        out.push_back((uint8_t)(a << 4 | b));
    }
    return true;
}

static void touch(size_t p, size_t off, size_t len) {
    for (size_t r = off / 64; r <= (off + len - 1) / 64 && len; ++r) rows_touched.push_back((uint32_t)(p << 16 | r));
}

// The SBUF's read data for the rows requested in the clock before, lane by lane.
static uint8_t rd_row[{{ lanes }}][64];
static bool rd_pending = false;
static std::string fault;
// Between taking an instruction and its done_o: the only time a write may come.
static bool executing = false;
// Reads taken since the instruction was: a write before the first is never the instruction's.
static uint64_t reads_taken = 0;
// The read port's stalls: percent of clocks, and the xorshift32 state.
static unsigned stall = 0;
static uint32_t rng = 1;
static const uint32_t STALL_SEED = 0x{{ stall_seed }}u;
static const uint8_t JUNK = 0x{{ junk }};
// The clocks the engine may keep inst_ready_o low before an instruction.
static const int READY_CLOCKS = {{ ready_clocks }};

static bool read_ready() {
    if (stall == 0) return true;
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng % 100 >= stall;
}

// One clock: the inputs are set, the rising edge, then the SBUF's edge.
static void tick() {
    m->rd_ready_i = read_ready();
    m->clk_i = 0;
    m->eval();
    uint32_t rd = m->rd_ready_i ? (uint32_t)m->rd_valid_o : 0;
    if (rd) ++reads_taken;
    bool wr = m->wr_valid_o;
    size_t rp = m->rd_partition_o, rr = m->rd_row_o, wp = m->wr_partition_o, wrow = m->wr_row_o;
    uint8_t wdata[64];
    uint64_t strb = m->wr_strb_o;
    for (int i = 0; i < 16; ++i) {
        uint32_t w = m->wr_data_o[i];
        for (int b = 0; b < 4; ++b) wdata[4 * i + b] = (uint8_t)(w >> (8 * b));
    }
    m->clk_i = 1;
    m->eval();
    ++clocks;
    // A read returns the row as it was before this edge's write.
    for (int j = 0; j < {{ lanes }}; ++j) {
        memset(rd_row[j], JUNK, 64);
        if (!(rd >> j & 1)) continue;
        if (rp + j < 128 && rr * 64 < pb) memcpy(rd_row[j], &sbuf[(rp + j) * pitch + rr * 64], 64);
        else fault = "a read outside the SBUF";
    }
    if (wr && !executing) fault = "a write between instructions";
    if (wr && executing && reads_taken == 0) fault = "a write before the instruction's first read";
    if (wr) {
        if (wp < 128 && wrow * 64 < pb) {
            for (int b = 0; b < 64; ++b)
                if (strb >> b & 1) {
                    if (wrow * 64 + b >= pb) fault = "a write outside the SBUF";
                    else sbuf[wp * pitch + wrow * 64 + b] = wdata[b];
                }
            rows_touched.push_back((uint32_t)(wp << 16 | wrow));
        } else {
            fault = "a write outside the SBUF";
        }
    }
    for (int j = 0; j < {{ lanes }}; ++j)
        for (int i = 0; i < 16; ++i) {
            uint32_t w = 0;
            for (int b = 0; b < 4; ++b) w |= (uint32_t)rd_row[j][4 * i + b] << (8 * b);
            m->rd_data_i[16 * j + i] = w;
        }
}

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    m = new V{{ module }};
    m->rst_ni = 0;
    m->inst_valid_i = 0;
    for (int i = 0; i < 4; ++i) tick();
    m->rst_ni = 1;
    tick();
    static char line[1 << 22];
    std::string id;
    std::vector<uint8_t> bytes, inst;
    std::string answer;
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char kind = line[0];
        if (kind == 'C') {
            char idbuf[256];
            size_t size;
            if (sscanf(line, "C %255s %zu %u", idbuf, &size, &stall) != 3 || size == 0 || size > (1u << 21) ||
                stall > 100) {
                fprintf(stderr, "malformed: %s\n", line);
                return 2;
            }
            id = idbuf;
            if (size != pb) {
                pb = size;
                pitch = (pb + 63) / 64 * 64;
                sbuf.assign(128 * pitch, 0);
            } else {
                for (uint32_t t : rows_touched) memset(&sbuf[(t >> 16) * pitch + (t & 0xffff) * 64], 0, 64);
            }
            rows_touched.clear();
            rng = STALL_SEED;
            answer.clear();
            fault.clear();
        } else if (kind == 'W') {
            size_t p, off;
            static char hex[1 << 21];
            if (sscanf(line, "W %zu %zu %2097151s", &p, &off, hex) != 3 || !unhex(hex, bytes) || p >= 128 ||
                off + bytes.size() > pb) {
                fprintf(stderr, "malformed: %.80s\n", line);
                return 2;
            }
            memcpy(&sbuf[p * pitch + off], bytes.data(), bytes.size());
            touch(p, off, bytes.size());
        } else if (kind == 'I') {
            unsigned long long limit = 0;
            if (n < 2 + 128 + 2 || line[130] != ' ' || (line[130] = 0, !unhex(line + 2, inst)) ||
                sscanf(line + 131, "%llu", &limit) != 1) {
                fprintf(stderr, "malformed: %.140s\n", line);
                return 2;
            }
            // Wait for ready (a while), present the instruction for one taking edge.
            for (int i = 0; i < READY_CLOCKS && !m->inst_ready_o; ++i) tick();
            if (!m->inst_ready_o) fault = "inst_ready_o low for " + std::to_string(READY_CLOCKS) + " clocks";
            m->pb_i = (uint32_t)pb;
            for (int i = 0; i < 16; ++i) {
                uint32_t w = 0;
                for (int b = 0; b < 4; ++b) w |= (uint32_t)inst[4 * i + b] << (8 * b);
                m->inst_i[i] = w;
            }
            m->inst_valid_i = fault.empty();
            executing = true;
            reads_taken = 0;
            tick();
            m->inst_valid_i = 0;
            uint64_t start = clocks;
            while (fault.empty()) {
                m->clk_i = 0;
                m->eval();
                if (m->done_o) break;
                if (clocks - start > limit) {
                    fault = "no done_o in " + std::to_string(limit) + " clocks";
                    break;
                }
                tick();
            }
            uint64_t cycles = clocks - start + 1;
            // Every write is issued before done_o: none in its clock.
            if (m->done_o && m->wr_valid_o && fault.empty()) fault = "a write in the done_o clock";
            executing = false;
            char head[128];
            if (!fault.empty()) answer = " fail " + fault;
            else if (m->accepted_o) snprintf(head, sizeof head, " ok %llu", (unsigned long long)cycles), answer = head;
            else snprintf(head, sizeof head, " reject %u %llu", (unsigned)m->rule_o, (unsigned long long)cycles), answer = head;
            if (!fault.empty()) {
                // The engine broke the protocol: reset, so the next case starts clean.
                m->rst_ni = 0;
                for (int i = 0; i < 4; ++i) tick();
                m->rst_ni = 1;
                tick();
            }
            // Else the engine stays in the done clock: the next instruction is taken in it.
        } else if (kind == 'R') {
            size_t p, off, len;
            if (sscanf(line, "R %zu %zu %zu", &p, &off, &len) != 3 || p >= 128 || off + len > pb) {
                fprintf(stderr, "malformed: %s\n", line);
                return 2;
            }
            if (answer.rfind(" ok", 0) == 0) {
                std::string h = " ";
                static const char* d = "0123456789abcdef";
                for (size_t i = 0; i < len; ++i) {
                    uint8_t b = sbuf[p * pitch + off + i];
                    h += d[b >> 4];
                    h += d[b & 15];
                }
                answer += h;
            }
        } else if (kind == 'E') {
            printf("%s%s\n", id.c_str(), answer.c_str());
            fflush(stdout);
        } else {
            fprintf(stderr, "malformed: %s\n", line);
            return 2;
        }
    }
    // After the last done_o: nothing may be written.
    for (int i = 0; i < {{ after_last }}; ++i) {
        tick();
        if (m->wr_valid_o) {
            printf("end fail a write after the last instruction's done_o\n");
            return 3;
        }
    }
    printf("end ok\n");
    delete m;
    return 0;
}
