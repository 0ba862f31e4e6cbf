#include "options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "argparse.h"
#include "log.h"
#include "xalloc.h"

#define HELP_COLUMN 24

/* Every entry of every group, in order, with its group's base. */
struct entry {
	const struct hb_option *o;
	size_t base;
};

static size_t collect(const struct hb_cmdspec *s, struct entry *out, size_t cap)
{
	size_t n = 0;

	for (int g = 0; s->groups[g].opts; g++)
		for (const struct hb_option *o = s->groups[g].opts; o->name; o++)
			if (out && n < cap)
				out[n++] = (struct entry){ o, s->groups[g].base };
			else if (!out)
				n++;
	return n;
}

static void *field(void *out, const struct entry *e, size_t off)
{
	return (char *)out + e->base + off;
}

static int store_list(const struct hb_option *o, const char *flag, const char *v, void *p,
		      void *countp, char **why)
{
	char ***strv = p;
	size_t n;

	if (o->kind == HB_OPT_LONG_LIST) {
		long *list;
		if (hb_parse_long_list(flag, v, (long)o->min, (long)o->max, &list, countp, why) < 0)
			return -1;
		free(*(long **)p);
		*(long **)p = list;
		return 0;
	}
	if (o->kind == HB_OPT_STR_LIST) {
		char **items;
		if (hb_split_list(flag, v, &items, NULL, why) < 0)
			return -1;
		hb_free_strv(*strv);
		*strv = items;
		return 0;
	}
	n = hb_strv_len(*strv);
	*strv = xrealloc(*strv, (n + 2) * sizeof(char *));
	(*strv)[n] = xstrdup(v);
	(*strv)[n + 1] = NULL;
	return 0;
}

static int store_value(const struct hb_option *o, const char *flag, const char *v, void *p,
		       void *countp, char **why)
{
	long l;
	int i;

	switch (o->kind) {
	case HB_OPT_FLAG: *(bool *)p = true; return 0;
	case HB_OPT_FLAG_OFF: *(bool *)p = false; return 0;
	case HB_OPT_INT:
		if (hb_parse_long(flag, v, (long)o->min, (long)o->max, &l, why) < 0)
			return -1;
		*(int *)p = (int)l;
		return 0;
	case HB_OPT_LONG: return hb_parse_long(flag, v, (long)o->min, (long)o->max, p, why);
	case HB_OPT_DOUBLE: return hb_parse_double(flag, v, o->min, o->max, p, why);
	case HB_OPT_SIZE_MIB: return hb_parse_size_mib(flag, v, (long)o->min, (long)o->max, p, why);
	case HB_OPT_CHOICE: return hb_parse_choice(flag, v, o->choices, p, why);
	case HB_OPT_CHOICE_STR:
		if (hb_parse_choice(flag, v, o->choices, &i, why) < 0)
			return -1;
		*(const char **)p = o->choices[i];
		return 0;
	case HB_OPT_STRING: *(const char **)p = v; return 0;
	case HB_OPT_CUSTOM: return 0;
	default: return store_list(o, flag, v, p, countp, why);
	}
}

/* Stores one given (or default) value, then runs the entry's own check. */
static int apply(const struct entry *e, const char *v, bool given, void *out, char **why)
{
	const struct hb_option *o = e->o;
	char *flag = xasprintf("--%s", o->name);
	int rc = store_value(o, flag, v, field(out, e, o->off), field(out, e, o->count_off), why);

	free(flag);
	if (rc == 0 && given && o->given_off)
		*(bool *)field(out, e, o->given_off) = true;
	if (rc == 0 && o->set)
		rc = o->set((char *)out + e->base, v, why);
	return rc;
}

static int apply_defaults(const struct entry *es, size_t n, void *out, char **why)
{
	for (size_t i = 0; i < n; i++) {
		if (es[i].o->kind == HB_OPT_FLAG_OFF)
			*(bool *)field(out, &es[i], es[i].o->off) = true;
		if (es[i].o->def && apply(&es[i], es[i].o->def, false, out, why) < 0)
			return -1;
	}
	return 0;
}

/* getopt_long's arrays from the table: long options return 256 + their index. */
static struct option *getopt_array(const struct entry *es, size_t n, char *shortopts)
{
	struct option *lo = xcalloc(n + 2, sizeof(*lo));
	char *p = shortopts;

	*p++ = ':';
	for (size_t i = 0; i < n; i++) {
		const struct hb_option *o = es[i].o;
		int has = !o->arg ? no_argument : o->optional_value ? optional_argument
									: required_argument;
		lo[i] = (struct option){ o->name, has, NULL, 256 + (int)i };
		if (o->letter) {
			*p++ = o->letter;
			if (has == required_argument)
				*p++ = ':';
		}
	}
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	*p++ = 'h';
	*p = '\0';
	return lo;
}

/* "--a, --b, --help": for the errors about an option that is not in the table. */
static char *accepted_names(const struct entry *es, size_t n)
{
	size_t len = sizeof("--help");
	char *out;

	for (size_t i = 0; i < n; i++)
		len += strlen(es[i].o->name) + 4;
	out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(out, "--");
		strcat(out, es[i].o->name);
		strcat(out, ", ");
	}
	strcat(out, "--help");
	return out;
}

static char *option_error(const struct hb_cmdspec *s, const struct entry *es, size_t n, int c,
			  const char *arg)
{
	char *names = accepted_names(es, n), *why;

	if (c == ':')
		why = xasprintf("%s: option '%s' needs a value (accepted options: %s)", s->cmd, arg, names);
	else
		why = xasprintf("%s: unknown option '%s' (accepted options: %s)", s->cmd, arg, names);
	free(names);
	return why;
}

/* The entry getopt_long returned: a long option's index, or a short letter's entry. */
static const struct entry *entry_of(const struct entry *es, size_t n, int c)
{
	if (c >= 256 && (size_t)(c - 256) < n)
		return &es[c - 256];
	for (size_t i = 0; i < n; i++)
		if (es[i].o->letter && es[i].o->letter == c)
			return &es[i];
	return NULL;
}

static int argv_end(const struct hb_cmdspec *s, int argc, char **argv)
{
	int end = 1;

	if (!s->stop_at_dashdash)
		return argc;
	while (end < argc && strcmp(argv[end], "--"))
		end++;
	return end;
}

static int scan(const struct hb_cmdspec *s, const struct entry *es, size_t n, int argc,
		char **argv, void *out, char **why)
{
	char shortopts[2 * 64 + 4];
	struct option *lo = getopt_array(es, n, shortopts);
	int c, rc = HB_OPTS_OK;

	optind = 0; /* glibc: 0 re-initialises the scanner, in case a command runs twice */
	opterr = 0;
	while (rc == HB_OPTS_OK && (c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct entry *e = entry_of(es, n, c);
		if (c == 'h' && !e) {
			hb_opts_help(s, stdout);
			rc = HB_OPTS_HELP;
		} else if (!e) {
			*why = option_error(s, es, n, c, argv[optind - 1]);
			rc = HB_OPTS_BAD;
		} else if (apply(e, optarg, true, out, why) < 0) {
			rc = HB_OPTS_BAD;
		}
	}
	free(lo);
	return rc;
}

int hb_opts_parse(const struct hb_cmdspec *s, int argc, char **argv, void *out,
		  int *first_operand, char **why)
{
	size_t n = collect(s, NULL, 0);
	struct entry *es = xcalloc(n + 1, sizeof(*es));
	int rc;

	collect(s, es, n);
	*why = NULL;
	rc = apply_defaults(es, n, out, why) < 0 ? HB_OPTS_BAD
		: scan(s, es, n, argv_end(s, argc, argv), argv, out, why);
	*first_operand = optind;
	free(es);
	return rc;
}

/* --help is at most this wide; option help starts at HELP_COLUMN. */
#define HELP_WIDTH 80

static const char *const group_titles[HB_OG_COUNT] = {
	[HB_OG_OTHER] = "other options",
	[HB_OG_WHAT] = "what runs",
	[HB_OG_HOW] = "how it is measured",
	[HB_OG_WHERE] = "where things go",
	[HB_OG_ADVANCED] = "advanced",
};

/* The order groups are listed in: the usual ones, then the entries that name none. */
static const enum hb_opt_group group_order[] = { HB_OG_WHAT, HB_OG_HOW, HB_OG_WHERE,
						 HB_OG_ADVANCED, HB_OG_OTHER };

const char *hb_opts_group_title(const struct hb_cmdspec *s, enum hb_opt_group g)
{
	return s->group_titles[g] ? s->group_titles[g] : group_titles[g];
}

/* Writes text from column col on, words wrapped at HELP_WIDTH, continuation lines
 * indented to indent; a "\n" in text is a space (the tables' own breaks predate the
 * wrapping). Ends with a newline. */
static void wrap_text(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t len;
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \n");
		if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += (int)len;
		p += len;
	}
	fputc('\n', f);
}

static void help_line(FILE *f, const struct hb_option *o)
{
	char letter[8] = "", head[128];
	bool opt = o->arg && o->optional_value;
	char *text;
	int len;

	if (o->letter)
		snprintf(letter, sizeof(letter), "-%c, ", o->letter);
	len = snprintf(head, sizeof(head), "  %s--%s%s%s%s", letter, o->name,
		       !o->arg ? "" : opt ? "[=" : " ", o->arg ? o->arg : "", opt ? "]" : "");
	fputs(head, f);
	if (len < HELP_COLUMN - 1)
		fprintf(f, "%*s", HELP_COLUMN - len, "");
	else
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	text = o->def ? xasprintf("%s (default %s)", o->help, o->def) : xstrdup(o->help);
	wrap_text(f, text, HELP_COLUMN, HELP_COLUMN);
	free(text);
}

/* How many groups of s list at least one option in --help. */
static int groups_used(const struct hb_cmdspec *s)
{
	bool used[HB_OG_COUNT] = { false };
	int n = 0;

	for (int g = 0; s->groups[g].opts; g++)
		for (const struct hb_option *o = s->groups[g].opts; o->name; o++)
			if (!o->hidden && !used[o->group]) {
				used[o->group] = true;
				n++;
			}
	return n;
}

/* Splits text into its synopsis (the "usage: " line and the lines under it that start
 * with "       harness", each without its lead) and its paragraphs (other lines joined,
 * blank lines between them). */
static void usage_parts(const char *text, struct hb_strv *synopsis, struct hb_strv *paragraphs)
{
	char *para = NULL;
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);

		if (!strncmp(line, "usage: ", 7) || !strncmp(line, "       harness ", 15)) {
			hb_strv_push(synopsis, xstrdup(line + 7));
		} else if (!*line) {
			if (para)
				hb_strv_push(paragraphs, para);
			para = NULL;
		} else {
			char *joined = para ? xasprintf("%s %s", para, line) : xstrdup(line);
			free(para);
			para = joined;
		}
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	if (para)
		hb_strv_push(paragraphs, para);
	hb_strv_push(synopsis, NULL);
	hb_strv_push(paragraphs, NULL);
}

void hb_opts_usage_parts(const struct hb_cmdspec *s, char ***synopsis, char ***paragraphs)
{
	struct hb_strv syn = { 0 }, paras = { 0 };

	usage_parts(s->usage, &syn, &paras);
	*synopsis = syn.v;
	*paragraphs = paras.v;
}

/* The usage text with its paragraphs wrapped to HELP_WIDTH. */
static void print_usage(const struct hb_cmdspec *s, FILE *f)
{
	char **syn, **paras;

	hb_opts_usage_parts(s, &syn, &paras);
	for (size_t i = 0; syn[i]; i++)
		fprintf(f, "%s%s\n", i ? "       " : "usage: ", syn[i]);
	for (size_t i = 0; paras[i]; i++) {
		fputc('\n', f);
		wrap_text(f, paras[i], 0, 0);
	}
	fputc('\n', f);
	hb_free_strv(syn);
	hb_free_strv(paras);
}

const struct hb_option **hb_opts_listing(const struct hb_cmdspec *s)
{
	size_t n = collect(s, NULL, 0), k = 0;
	const struct hb_option **list = xcalloc(n + 1, sizeof(*list));

	for (size_t i = 0; i < sizeof(group_order) / sizeof(group_order[0]); i++)
		for (int g = 0; s->groups[g].opts; g++)
			for (const struct hb_option *o = s->groups[g].opts; o->name; o++)
				if (!o->hidden && o->group == group_order[i])
					list[k++] = o;
	return list;
}

void hb_opts_help(const struct hb_cmdspec *s, FILE *f)
{
	const struct hb_option **list = hb_opts_listing(s);
	bool headings = groups_used(s) > 1;

	print_usage(s, f);
	if (!headings)
		fputs("options:\n", f);
	for (size_t i = 0; list[i]; i++) {
		if (headings && (!i || list[i]->group != list[i - 1]->group))
			fprintf(f, "%s%s:\n", i ? "\n" : "", hb_opts_group_title(s, list[i]->group));
		help_line(f, list[i]);
	}
	if (headings && list[0])
		fputc('\n', f);
	free(list);
	fprintf(f, "  -h, --help%*sthis text\n", HELP_COLUMN - 12, "");
	if (s->examples && s->examples[0].line) {
		fputs("\nexamples:\n", f);
		for (const struct hb_example *e = s->examples; e->line; e++) {
			fprintf(f, "  %s\n      ", e->line);
			wrap_text(f, e->what, 6, 6);
		}
	}
	if (s->epilog) {
		fputc('\n', f);
		wrap_text(f, s->epilog, 0, 0);
	}
}

void hb_opts_free(const struct hb_cmdspec *s, void *out)
{
	size_t n = collect(s, NULL, 0);
	struct entry *es = xcalloc(n + 1, sizeof(*es));

	collect(s, es, n);
	for (size_t i = 0; i < n; i++) {
		void *p = field(out, &es[i], es[i].o->off);
		if (es[i].o->kind == HB_OPT_LONG_LIST) {
			free(*(long **)p);
			*(long **)p = NULL;
		} else if (es[i].o->kind == HB_OPT_STR_LIST || es[i].o->kind == HB_OPT_STR_REPEAT) {
			hb_free_strv(*(char ***)p);
			*(char ***)p = NULL;
		}
	}
	free(es);
}

bool hb_opts_cmd(const struct hb_cmdspec *s, int argc, char **argv, void *out, int *first_operand,
		 int *status)
{
	char *why;
	int rc = hb_opts_parse(s, argc, argv, out, first_operand, &why);

	*status = rc == HB_OPTS_HELP ? HB_EXIT_OK : rc == HB_OPTS_BAD ? hb_usage_why(why) : HB_EXIT_OK;
	if (rc == HB_OPTS_OK && s->operand) {
		if (*first_operand >= argc)
			*status = hb_usage("%s: missing %s (accepted: %s)", s->cmd, s->operand,
					   s->operand_accepted);
		else if (*first_operand + 1 < argc)
			*status = hb_usage("%s: unexpected argument '%s' (accepted: one %s)", s->cmd,
					   argv[*first_operand + 1], s->operand);
	}
	if (rc == HB_OPTS_OK && *status == HB_EXIT_OK)
		return true;
	hb_opts_free(s, out); /* the lists read before the stop: the caller only returns */
	return false;
}
