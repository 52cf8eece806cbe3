// {{ header }}
// The Verilator harness of {{ wrapper }} ({{ what }}):
// records on stdin, one clocked in a clock, results on stdout in the same
// order. `crosslane prove --fp` builds and runs it (docs/fp-units.md); by hand:
//   verilator --cc --exe --build -O3 --top-module {{ wrapper }} -GLATENCY=<L> \
//       -CFLAGS -DLATENCY=<L> <the unit's rtl files> crosslane_{{ unit }}_harness.cpp
// A record: {{ in_desc }}, each port little-endian in whole bytes ({{ in_bytes }} bytes).
// A result: {{ out_desc }} ({{ out_bytes }} bytes).
// Exit 0 when every record was answered; 2 on input that is not whole records.
#include "V{{ wrapper }}.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <vector>

#ifndef LATENCY
#error "build with -CFLAGS -DLATENCY=<the LATENCY given to the wrapper>"
#endif

static const size_t IN_BYTES = {{ in_bytes }};
static const size_t OUT_BYTES = {{ out_bytes }};
static const size_t CHUNK = 1 << 16;

static uint64_t get(const uint8_t* p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put(uint8_t* p, size_t n, uint64_t v) {
    for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

int main(int argc, char** argv) {
    VerilatedContext ctx;
    ctx.commandArgs(argc, argv);
    V{{ wrapper }} m{&ctx};
    std::vector<uint8_t> in(CHUNK * IN_BYTES), out(CHUNK * OUT_BYTES);
    const std::vector<uint8_t> idle(IN_BYTES, 0);
    size_t have = 0, queued = 0;  // bytes in `in`; results in `out`
    uint64_t fed = 0, clocks = 0, answered = 0;  // records clocked in, clocks, results out
    bool eof = false;
    m.clk_i = 0;
    m.eval();
    while (!eof || answered < fed) {
        if (!eof && have < IN_BYTES) {
            size_t n = fread(in.data() + have, 1, in.size() - have, stdin);
            have += n;
            if (n == 0) {
                eof = true;
                if (have != 0) {
                    fprintf(stderr, "crosslane_{{ unit }}_harness: %zu bytes at the end are not a whole record of %zu\n",
                            have, IN_BYTES);
                    return 2;
                }
            }
            continue;
        }
        size_t records = eof ? 0 : have / IN_BYTES;
        // After the input ends, idle records clock the last results out.
        size_t steps = eof ? (size_t)(fed - answered) : records;
        for (size_t r = 0; r < steps; ++r) {
            const uint8_t* p = eof ? idle.data() : in.data() + r * IN_BYTES;
{{ set_inputs }}
            m.clk_i = 0;
            m.eval();
            m.clk_i = 1;
            m.eval();
            ++clocks;
            if (!eof) ++fed;
            // The result of record k is on the outputs after clock k + LATENCY.
            if (clocks >= LATENCY && answered < fed) {
                uint8_t* q = out.data() + queued * OUT_BYTES;
{{ get_outputs }}
                ++answered;
                if (++queued == CHUNK) {
                    fwrite(out.data(), OUT_BYTES, queued, stdout);
                    queued = 0;
                }
            }
        }
        if (!eof) {
            size_t used = records * IN_BYTES;
            for (size_t i = used; i < have; ++i) in[i - used] = in[i];
            have -= used;
        }
    }
    fwrite(out.data(), OUT_BYTES, queued, stdout);
    fflush(stdout);
    m.final();
    return 0;
}
