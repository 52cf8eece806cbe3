// {{ header }}
//
// Verilator harness of crosslane_reduce_tb. Two ways to run it:
//   crosslane_reduce_tb +vectors=FILE +count=N [+mode=check]
//       makes the clock for the self-checking testbench; exit 0 only if it
//       checked at least one vector and found no error.
//   crosslane_reduce_tb +mode=ext < cases.bin > results.bin
//       drives the unit directly, one case per clock: each case is
//       {{ case_bytes }} bytes (op u16, vbool u64, vec 64 bytes, little-endian),
//       each result {{ result_bytes }} bytes (result u32, mask u64). The time of
//       the clock loop alone goes to stderr as "harness: N vectors in S s".
#include "Vcrosslane_reduce_tb.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

static const int LATENCY = {{ latency }};

static void tick(Vcrosslane_reduce_tb* top) {
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
}

static int run_ext(Vcrosslane_reduce_tb* top) {
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
    size_t got = 0;
    auto start = std::chrono::steady_clock::now();
    // Case c is presented at clock c; its result must be on the outputs with
    // out_valid_o high after clock c + LATENCY - 1, and out_valid_o must be
    // low after every other clock.
    for (size_t cycle = 0; cycle < cases + LATENCY; ++cycle) {
        if (cycle < cases) {
            const unsigned char* c = &in[cycle * {{ case_bytes }}];
            uint16_t op;
            uint64_t vbool;
            memcpy(&op, c, 2);
            memcpy(&vbool, c + 2, 8);
            top->ext_valid = 1;
            top->ext_op = op;
            top->ext_vbool = vbool;
            for (int w = 0; w < 16; ++w) {
                uint32_t word;
                memcpy(&word, c + 10 + 4 * w, 4);
                top->ext_vec[w] = word;
            }
        } else {
            top->ext_valid = 0;
        }
        // Inputs change with the rising edge's eval: the unit samples them there.
        tick(top);
        const bool want = cycle + 1 >= (size_t)LATENCY && cycle + 1 - LATENCY < cases;
        if ((bool)top->dut_valid != want) {
            fprintf(stderr, "harness: out_valid_o is %d after clock %zu of %zu cases; want %d (latency %d)\n",
                    (int)top->dut_valid, cycle, cases, (int)want, LATENCY);
            return 3;
        }
        if (want) {
            uint32_t result = top->dut_result;
            uint64_t mask = top->dut_mask;
            memcpy(&out[got * {{ result_bytes }}], &result, 4);
            memcpy(&out[got * {{ result_bytes }} + 4], &mask, 8);
            ++got;
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fprintf(stderr, "harness: %zu vectors in %.6f s\n", cases, secs);
    if (fwrite(out.data(), 1, out.size(), stdout) != out.size()) return 4;
    return 0;
}

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vcrosslane_reduce_tb>(ctx.get());
    top->clk = 0;
    top->ext_valid = 0;
    top->eval();
    const char* mode = ctx->commandArgsPlusMatch("mode=ext");
    if (mode && mode[0]) {
        int rc = run_ext(top.get());
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
