/* crosslane: the golden model of the CrossLaneReduce unit behind a C ABI.
 *
 * Link with libcrosslane_dpi.a (plus -lpthread -ldl -lm) or
 * libcrosslane_dpi.so, built by `cargo build --release -p crosslane-dpi`.
 * The functions are pure, thread-safe and never abort: bad arguments are
 * error codes. SystemVerilog: sv/crosslane_dpi_pkg.sv imports the same
 * functions with `import "DPI-C"`.
 */
#ifndef CROSSLANE_H
#define CROSSLANE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CROSSLANE_OK 0
#define CROSSLANE_EUNKNOWN_OP (-1) /* the code names none of the 94 primitives */
#define CROSSLANE_ENULL (-2)       /* a pointer argument is null */

/* The number of primitives (94). */
int crosslane_op_count(void);
/* The op-select code of primitive index (0 <= index < count), -1 out of range. */
int crosslane_op_at(int index);
/* The name of op code `code` (static string), "" when it names no primitive. */
const char *crosslane_op_name(int code);
/* The op code of `name`, e.g. "rbmax_nx16_t", or -1. */
int crosslane_op_code(const char *name);
/* The width of op `code`'s result in bits, or -1. */
int crosslane_result_bits(int code);
/* The unit's register stages: an input sampled at rising edge k is on
 * crosslane_reduce's outputs after edge k + latency - 1. */
int crosslane_latency(void);
/* The same for the configuration whose module is `name`
 * ("crosslane_reduce", "crosslane_reduce_every2", "crosslane_reduce_every3"),
 * or -1 for a name that is no configuration. */
int crosslane_module_latency(const char *name);

/* Evaluate op `code` on the 512-bit `vec` (16 words, vec[0] = bits 31:0,
 * the layout of a DPI `bit [511:0]`) and `vbool`, as the unit's ports carry
 * them: *result gets the result in its low result-bits and 0 above, *mask
 * the rb* lane mask (0 for every other op). Returns CROSSLANE_OK,
 * CROSSLANE_EUNKNOWN_OP (outputs untouched) or CROSSLANE_ENULL. */
int crosslane_eval(int code, const uint32_t vec[16], uint64_t vbool, uint32_t *result, uint64_t *mask);

#ifdef __cplusplus
}
#endif

#endif
