/* The C library from plain C: every op on one vector (lane bytes 0, 1, 2,
 * ..., 63) with every odd predicate bit set; one line per op:
 * "name result mask". */
#include <inttypes.h>
#include <stdio.h>
#include "crosslane.h"

int main(void) {
    uint32_t vec[16];
    for (int w = 0; w < 16; w++) {
        vec[w] = 0;
        for (int b = 0; b < 4; b++) vec[w] |= (uint32_t)(4 * w + b) << (8 * b);
    }
    const uint64_t vbool = 0xaaaaaaaaaaaaaaaaULL;
    for (int i = 0; i < crosslane_op_count(); i++) {
        int code = crosslane_op_at(i);
        uint32_t result;
        uint64_t mask;
        if (crosslane_eval(code, vec, vbool, &result, &mask) != CROSSLANE_OK) return 1;
        printf("%s %08" PRIx32 " %016" PRIx64 "\n", crosslane_op_name(code), result, mask);
    }
    uint32_t r;
    uint64_t m;
    return crosslane_eval(0x1ff, vec, 0, &r, &m) == CROSSLANE_EUNKNOWN_OP ? 0 : 1;
}
