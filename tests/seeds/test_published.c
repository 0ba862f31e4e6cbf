/* The published figures (workloads/<workload>/published.json) checked against what the
 * mails say.
 *   data     every file loads; each figure's number is among the numbers of its quote;
 *            figures with raw values agree with them
 *   quotes   each quote is on the named line of the seed mail (HARDBENCH_SEEDS_DIR,
 *            default /work/shared/seeds; skipped when the mails are not on this machine)
 * The source tree comes from HARDBENCH_SOURCE_DIR (set by meson test). */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "seeds/seeds.h"

#define DEFAULT_SEEDS_DIR "/work/shared/seeds"
#define MAX_NUMBERS 64

/* The numbers written in s ("0m24.189s" -> 0, 24.189; "104%" -> 104). */
static size_t numbers_in(const char *s, double *out, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		if (strchr("0123456789", *s)) {
			char *end;
			out[n++] = strtod(s, &end);
			s = end;
		} else {
			s++;
		}
	}
	return n;
}

static bool same_number(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* Is x written in one of the quotes? */
static bool quoted(const struct seed_figure *f, double x)
{
	double nums[MAX_NUMBERS];

	for (size_t q = 0; f->quotes[q]; q++) {
		size_t n = numbers_in(f->quotes[q], nums, MAX_NUMBERS);
		for (size_t i = 0; i < n; i++)
			if (same_number(nums[i], fabs(x)))
				return true;
	}
	return false;
}

/* The figure from the raw values, in its kind. */
static double from_raw(const struct seed_figure *f)
{
	double ratio = f->variant_value / f->baseline_value;
	return f->kind == SEED_RATIO ? ratio : (ratio - 1) * 100;
}

/* The seed's own difference columns: quoted, and within a unit (their rounding) of the
 * raw values' difference and of that difference per item. */
static void check_delta(int *failures, const struct seed_figure *f)
{
	double diff = f->variant_value - f->baseline_value;

	if (isnan(f->delta))
		return;
	CHECK(quoted(f, f->delta), "%s figure %zu: delta %g is not in its quote", f->file, f->index, f->delta);
	CHECK(fabs(f->delta - diff) <= 1, "%s figure %zu: delta %g, raw values %g apart", f->file,
	      f->index, f->delta, diff);
	if (f->per_count < 1)
		return;
	CHECK(quoted(f, f->delta_per), "%s figure %zu: delta_per %g is not in its quote", f->file,
	      f->index, f->delta_per);
	CHECK(fabs(f->delta_per - f->delta / (double)f->per_count) <= 1, "%s figure %zu: delta_per %g "
	      "is not %g / %ld", f->file, f->index, f->delta_per, f->delta, f->per_count);
}

static void check_figure(int *failures, const struct seed_figure *f)
{
	const char *where = f->file;
	size_t i = f->index;

	if (f->derived) {
		/* Ours, from two published values: both must be quoted, the figure their ratio. */
		CHECK(isfinite(f->variant_value) && isfinite(f->baseline_value),
		      "%s figure %zu: derived without raw values", where, i);
		CHECK(quoted(f, f->variant_value) && quoted(f, f->baseline_value),
		      "%s figure %zu: raw values not in the quote", where, i);
		CHECK(fabs(from_raw(f) - f->value) <= 5e-4 * fabs(f->value),
		      "%s figure %zu: %g is not %g/%g to 4 digits", where, i, f->value,
		      f->variant_value, f->baseline_value);
		return;
	}
	/* As printed: 26.366 in "26.366x", 1.04 in "104%", -0.25 in "0.25% faster". */
	CHECK(quoted(f, f->value) || (f->kind == SEED_RATIO && quoted(f, round(f->value * 100))),
	      "%s figure %zu: %g is not in its quote", where, i, f->value);
	check_delta(failures, f);
	if (isfinite(f->variant_value) && isfinite(f->baseline_value))
		CHECK(fabs(from_raw(f) - f->value) <= 6e-3 * fmax(1, fabs(f->value)),
		      "%s figure %zu: %g vs %g from %g/%g", where, i, f->value, from_raw(f),
		      f->variant_value, f->baseline_value);
}

/* Every workload's published.json, loaded; NULL (a failed check) when they do not load. */
static struct seed_data *load_all(int *failures, struct seed_data *d)
{
	char *dir = hb_path_join(hb_source_dir(), "workloads");
	bool ok = seeds_load(dir, d) == HB_EXIT_OK;

	CHECK(ok, "%s/*/published.json load", dir);
	free(dir);
	return ok ? d : NULL;
}

static void check_data(int *failures, const struct seed_data *d)
{
	static const char *const workloads[] = { "hackbench", "hugetlb", "kbuild", "test_vmalloc",
		"vmaops", NULL };

	CHECK(d->files == 5, "%zu published.json files, want one per workload", d->files);
	for (size_t w = 0; workloads[w]; w++) {
		size_t n = 0;
		for (size_t i = 0; i < d->n; i++)
			n += !strcmp(d->figs[i].workload, workloads[w]);
		CHECK(n > 0, "no figure for %s", workloads[w]);
	}
	for (size_t i = 0; i < d->n; i++)
		check_figure(failures, &d->figs[i]);
}

TEST(data)
{
	struct seed_data d;

	if (load_all(failures, &d)) {
		check_data(failures, &d);
		seeds_free(&d);
	}
}

/* Whitespace runs -> one space, trimmed (mails re-wrap and indent). Caller frees. */
static char *squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++)
		if (!strchr(" \t\r\n", *s))
			*o++ = *s;
		else if (o > out && o[-1] != ' ')
			*o++ = ' ';
	if (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* Line n (1-based) of <dir>/<seed>_*.txt, squeezed; NULL when there is none. */
static char *seed_line(const char *dir, const char *seed, long n)
{
	struct dirent **names;
	int count = scandir(dir, &names, NULL, alphasort);
	char *text = NULL, *line = NULL;

	for (int i = 0; i < count; i++) {
		size_t len = strlen(seed);
		if (!text && !strncmp(names[i]->d_name, seed, len) && names[i]->d_name[len] == '_') {
			char *path = hb_path_join(dir, names[i]->d_name);
			text = hb_read_file(path, NULL);
			free(path);
		}
		free(names[i]);
	}
	free(count >= 0 ? names : NULL);
	for (char *p = text; p && n > 0; n--) {
		char *nl = strchr(p, '\n');
		if (n == 1)
			line = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		p = nl ? nl + 1 : NULL;
	}
	free(text);
	if (line) {
		char *s = squeeze(line);
		free(line);
		line = s;
	}
	return line;
}

static void check_quotes(int *failures, const struct seed_data *d, const char *dir)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct seed_figure *f = &d->figs[i];
		char *line = seed_line(dir, f->seed, f->line);
		CHECK(line != NULL, "%s figure %zu: seed %s has no line %ld", f->file, f->index, f->seed, f->line);
		for (size_t q = 0; line && f->quotes[q]; q++) {
			char *quote = squeeze(f->quotes[q]);
			CHECK(strstr(line, quote) != NULL, "%s figure %zu: '%s' is not on line %ld of seed %s",
			      f->file, f->index, quote, f->line, f->seed);
			free(quote);
		}
		free(line);
	}
}

TEST(quotes)
{
	const char *dir = getenv("HARDBENCH_SEEDS_DIR");
	struct seed_data d;

	if (!dir || !*dir)
		dir = DEFAULT_SEEDS_DIR;
	if (!hb_is_dir(dir))
		SKIP("the seed mails are not here (set HARDBENCH_SEEDS_DIR)");
	if (load_all(failures, &d)) {
		check_quotes(failures, &d, dir);
		seeds_free(&d);
	}
}

TEST_MAIN()
