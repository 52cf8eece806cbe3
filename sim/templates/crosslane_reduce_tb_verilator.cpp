// {{ header }}
//
// Verilator harness of crosslane_reduce_tb. Two ways to run it:
//   crosslane_reduce_tb +vectors=FILE +count=N [+mode=check]
//       makes the clock for the self-checking testbench; exit 0 only if it
//       checked at least one vector and found no error.
//   crosslane_reduce_tb +mode=ext [+reset_every=N] < cases.bin > results.bin
//       drives the unit directly, one case per clock (and every N cases a
//       reset in mid-stream that in-flight inputs must not survive), checking
//       out_valid_o after every clock: each case is
//       {{ case_bytes }} bytes (op u16, vbool u64, vec 64 bytes, little-endian),
//       each result {{ result_bytes }} bytes (result u32, mask u64). The time of
//       the clock loop alone goes to stderr as "harness: N vectors in S s".
#include "Vcrosslane_reduce_tb.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <memory>
#include <vector>

// The configuration: built with -GEVERY=k and -DCROSSLANE_EVERY=k together.
#ifndef CROSSLANE_EVERY
#define CROSSLANE_EVERY 1
#endif
static const int LATENCY ={% for c in configs %} CROSSLANE_EVERY == {{ c.every }} ? {{ c.latency }} :{% endfor %} 0;
static_assert(LATENCY > 0, "CROSSLANE_EVERY names no configuration");

// One clock: the falling edge (the testbench presents, in +mode=ext it takes
// the ext_* inputs), then the rising edge (the unit samples). The clock
// rests high between ticks.
static void tick(Vcrosslane_reduce_tb* top) {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
}

static void drive(Vcrosslane_reduce_tb* top, const unsigned char* c, bool valid, bool rst_n) {
    uint16_t op;
    uint64_t vbool;
    memcpy(&op, c, 2);
    memcpy(&vbool, c + 2, 8);
    top->ext_rst_n = rst_n;
    top->ext_valid = valid;
    top->ext_op = op;
    top->ext_vbool = vbool;
    for (int w = 0; w < 16; ++w) {
        uint32_t word;
        memcpy(&word, c + 10 + 4 * w, 4);
        top->ext_vec[w] = word;
    }
}

// Cases go in one per clock. Every `reset_every` cases (0: never) the
// harness drains the pipeline, then presents LATENCY - 1 sacrificial valid
// inputs (so every stage holds one) and holds rst_ni low for one or two
// clocks while a last one is presented: none of them may come out. A model
// of the valid pipeline (`pipe`: what each stage holds; reset empties it)
// says after every clock whether out_valid_o must be high and for which
// case; any difference fails the run with the clock named.
static int run_ext(Vcrosslane_reduce_tb* top, uint64_t reset_every) {
    std::vector<unsigned char> in;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) in.insert(in.end(), buf, buf + n);
    if (in.size() % {{ case_bytes }} != 0) {
        fprintf(stderr, "harness: input is %zu bytes, not a multiple of {{ case_bytes }}\n", in.size());
        return 2;
    }
    const size_t cases = in.size() / {{ case_bytes }};
    std::vector<unsigned char> out(cases * {{ result_bytes }});
    const long NONE = -1, SACRIFICE = -2;
    std::vector<long> pipe(LATENCY, NONE);
    size_t got = 0, next = 0, resets = 0;
    uint64_t clock = 0;
    int plan = 0;  // clocks left in a reset sequence; 0: presenting cases
    auto start = std::chrono::steady_clock::now();
    while (got < cases) {
        if (clock > 2 * (uint64_t)cases + 64 * (uint64_t)LATENCY + 64 * (cases / (reset_every ? reset_every : cases + 1) + 1) * LATENCY) {
            fprintf(stderr, "harness: %zu of %zu results after %llu clocks\n", got, cases, (unsigned long long)clock);
            return 3;
        }
        long entering = NONE;
        bool rst_n = true;
        if (plan == 0 && reset_every && next > 0 && next < cases && next % reset_every == 0 && resets < next / reset_every) {
            plan = 2 * LATENCY + (int)(resets % 2);  // drain, sacrifice, reset (1 or 2 clocks)
            ++resets;
        }
        if (plan > 0) {
            const unsigned char* junk = &in[(next - 1) * {{ case_bytes }}];
            const int reset_clocks = 1 + (int)((resets - 1) % 2);
            if (plan > LATENCY + reset_clocks - 1) {
                drive(top, junk, false, true);  // drain
            } else if (plan > reset_clocks) {
                drive(top, junk, true, true);  // sacrificial inputs
                entering = SACRIFICE;
            } else {
                drive(top, junk, true, false);  // reset, with a valid input that must be dropped
                rst_n = false;
            }
            --plan;
        } else if (next < cases) {
            drive(top, &in[next * {{ case_bytes }}], true, true);
            entering = (long)next++;
        } else {
            top->ext_valid = 0;
            top->ext_rst_n = 1;
        }
        // The testbench takes the inputs at this tick's falling edge; the unit
        // samples them at its rising edge.
        tick(top);
        ++clock;
        if (!rst_n) {
            std::fill(pipe.begin(), pipe.end(), NONE);
        } else {
            for (int k = LATENCY - 1; k > 0; --k) pipe[k] = pipe[k - 1];
            pipe[0] = entering;
        }
        const long want = pipe[LATENCY - 1];
        if ((bool)top->dut_valid != (want != NONE)) {
            fprintf(stderr, "harness: out_valid_o is %d after clock %llu; want %d (latency %d, %zu resets so far)\n",
                    (int)top->dut_valid, (unsigned long long)clock - 1, (int)(want != NONE), LATENCY, resets);
            return 3;
        }
        if (want == SACRIFICE) {
            fprintf(stderr, "harness: model error: a sacrificed input survived a reset\n");
            return 3;
        }
        if (want >= 0) {
            if ((size_t)want != got) {
                fprintf(stderr, "harness: case %ld came out in place of case %zu\n", want, got);
                return 3;
            }
            uint32_t result = top->dut_result;
            uint64_t mask = top->dut_mask;
            memcpy(&out[got * {{ result_bytes }}], &result, 4);
            memcpy(&out[got * {{ result_bytes }} + 4], &mask, 8);
            ++got;
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fprintf(stderr, "harness: %zu vectors in %.6f s, %zu resets\n", cases, secs, resets);
    if (fwrite(out.data(), 1, out.size(), stdout) != out.size()) return 4;
    return 0;
}

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vcrosslane_reduce_tb>(ctx.get());
    top->clk = 1;
    top->ext_valid = 0;
    top->ext_rst_n = 1;
    top->eval();
    const char* mode = ctx->commandArgsPlusMatch("mode=ext");
    if (mode && mode[0]) {
        const char* every = ctx->commandArgsPlusMatch("reset_every=");
        const uint64_t reset_every = (every && every[0]) ? strtoull(every + strlen("+reset_every="), nullptr, 10) : 0;
        int rc = run_ext(top.get(), reset_every);
        top->final();
        return rc;
    }
    for (uint64_t cycle = 0; !top->done; ++cycle) {
        if (cycle > (1ull << 32)) {
            printf("harness: the testbench never finished\n");
            return 3;
        }
        tick(top.get());
    }
    top->final();
    fflush(stdout);
    return top->failed ? 1 : 0;
}
