#include "analysis/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *unknown(char *buf)
{
	strcpy(buf, "-");
	return buf;
}

static void trim_zeros(char *buf)
{
	char *dot = strchr(buf, '.');
	char *end;

	if (!dot)
		return;
	end = buf + strlen(buf) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

const char *fmt_value(char *buf, double v)
{
	int decimals;

	if (!isfinite(v))
		return unknown(buf);
	if (v == 0 || fabs(v) >= 1e5) {
		snprintf(buf, NUMFMT_SIZE, "%.0f", v);
		return buf;
	}
	decimals = 4 - (int)floor(log10(fabs(v)));
	if (decimals > 9)
		decimals = 9;
	snprintf(buf, NUMFMT_SIZE, "%.*f", decimals, v);
	trim_zeros(buf);
	return buf;
}

const char *fmt_pct(char *buf, double v)
{
	if (!isfinite(v))
		return unknown(buf);
	snprintf(buf, NUMFMT_SIZE, "%+.2f%%", v);
	return buf;
}

const char *fmt_pct_plain(char *buf, double v)
{
	if (!isfinite(v))
		return unknown(buf);
	snprintf(buf, NUMFMT_SIZE, "%.2f%%", v);
	return buf;
}

const char *fmt_ci(char *buf, double low, double high)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (!isfinite(low) || !isfinite(high))
		return unknown(buf);
	snprintf(buf, NUMFMT_SIZE, "[%s, %s]", fmt_pct(a, low), fmt_pct(b, high));
	return buf;
}

const char *fmt_x(char *buf, double ratio)
{
	if (!isfinite(ratio))
		return unknown(buf);
	snprintf(buf, NUMFMT_SIZE, "%.4g", ratio);
	if (ratio < 100 && (!strchr(buf, '.') || strlen(strchr(buf, '.')) < 3) && !strchr(buf, 'e'))
		snprintf(buf, NUMFMT_SIZE, "%.2f", ratio);
	strcat(buf, "x");
	return buf;
}

/* Above this a cost reads as a ratio: a doubling and more. */
#define COST_AS_RATIO_PCT 100.0

static bool as_ratio(double pct)
{
	return isfinite(pct) && pct > COST_AS_RATIO_PCT;
}

const char *fmt_cost(char *buf, double pct)
{
	return as_ratio(pct) ? fmt_x(buf, 1 + pct / 100) : fmt_pct(buf, pct);
}

const char *fmt_cost_ci(char *buf, double pct, double low, double high)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (!as_ratio(pct) || !isfinite(low) || !isfinite(high))
		return fmt_ci(buf, low, high);
	snprintf(buf, NUMFMT_SIZE, "[%s, %s]", fmt_x(a, 1 + low / 100), fmt_x(b, 1 + high / 100));
	return buf;
}

const char *fmt_cost_se(char *buf, double pct, double se_pct)
{
	if (!as_ratio(pct) || !isfinite(se_pct))
		return fmt_pct_plain(buf, se_pct);
	snprintf(buf, NUMFMT_SIZE, "%.2g", se_pct / 100);
	return buf;
}

const char *fmt_ratio(char *buf, double v, int decimals)
{
	if (!isfinite(v))
		return unknown(buf);
	snprintf(buf, NUMFMT_SIZE, "%.*f", decimals, v);
	return buf;
}

const char *fmt_p(char *buf, double p)
{
	if (!isfinite(p))
		return unknown(buf);
	if (p >= 0.01)
		snprintf(buf, NUMFMT_SIZE, "%.2f", p);
	else if (p >= 0.0001)
		snprintf(buf, NUMFMT_SIZE, "%.4f", p);
	else
		strcpy(buf, "<0.0001");
	return buf;
}

const char *fmt_p_eq(char *buf, double p)
{
	char v[NUMFMT_SIZE];

	fmt_p(v, p);
	strcpy(buf, v[0] == '<' ? "p" : "p=");
	strcat(buf, v); /* fmt_p writes at most 8 characters */
	return buf;
}
