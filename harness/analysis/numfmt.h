/* Numbers for people: enough digits to compare variants, no scientific notation for the
 * magnitudes benchmarks produce, "-" for unknown (NAN). Each returns buf. */
#ifndef HB_ANALYSIS_NUMFMT_H
#define HB_ANALYSIS_NUMFMT_H

#include <stddef.h>

#define NUMFMT_SIZE 48

/* 5 significant digits, trailing zeros trimmed; whole numbers from 100000 up. */
const char *fmt_value(char *buf, double v);
/* "+4.57%" (signed, 2 decimals). */
const char *fmt_pct(char *buf, double v);
/* "4.57%" (unsigned, 2 decimals), for standard errors and cv given as fractions *100. */
const char *fmt_pct_plain(char *buf, double v);
/* A confidence interval "[+4.12%, +5.02%]"; "-" when either end is unknown. */
const char *fmt_ci(char *buf, double low, double high);
/* A ratio the seeds' way: "193.5x", "26.37x", "1.10x", "0.6614x" (4 significant digits,
 * at least 2 decimals below 100). */
const char *fmt_x(char *buf, double ratio);
/* A cost (slowdown %): above +100% as the ratio it is ("193.5x", where "+19254.40%" is
 * hard to read), else fmt_pct. */
const char *fmt_cost(char *buf, double pct);
/* Its interval in the same form as the cost: "[193.5x, 193.6x]" or "[+4.12%, +5.02%]". */
const char *fmt_cost_ci(char *buf, double pct, double low, double high);
/* Its standard error in the same form: "0.0068" (of the ratio) or "0.68%". */
const char *fmt_cost_se(char *buf, double pct, double se_pct);
/* A ratio with the given decimals. */
const char *fmt_ratio(char *buf, double v, int decimals);
/* "0.40", "0.0031", "<0.0001". */
const char *fmt_p(char *buf, double p);
/* "p=0.40", "p<0.0001", "p=-". */
const char *fmt_p_eq(char *buf, double p);

#endif
