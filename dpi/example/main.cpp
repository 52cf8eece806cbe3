// Clocks crosslane_dpi_tb under Verilator until it calls $finish; exit 0
// only when it passed.
#include <memory>
#include "Vcrosslane_dpi_tb.h"
#include "verilated.h"

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vcrosslane_dpi_tb>(ctx.get());
    top->clk_i = 1;
    top->eval();
    while (!ctx->gotFinish()) {
        top->clk_i = !top->clk_i;
        top->eval();
    }
    top->final();
    return top->passed_o ? 0 : 1;
}
