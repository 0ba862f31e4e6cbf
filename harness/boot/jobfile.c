#include "boot/jobfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "guest/protocol.h"

char *jobfile_encode(const char *s)
{
	char *out = xmalloc(strlen(s) * 3 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '%')
			o += sprintf(o, "%%%02X", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

static void put(FILE *f, const char *key, const char *value)
{
	char *enc = jobfile_encode(value);
	fprintf(f, "%s %s\n", key, enc);
	free(enc);
}

char *jobfile_render(const char *home, const char *modules, const struct guest_job *jobs,
		     size_t njobs)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		hb_fatal("out of memory writing the job file");
	fprintf(f, HB_JOBFILE_MAGIC " %d\n", HB_PROTOCOL_VERSION);
	if (home)
		put(f, "home", home);
	if (modules)
		put(f, "modules", modules);
	for (size_t j = 0; j < njobs; j++) {
		fputs("job\n", f);
		fprintf(f, "reps %d\n", jobs[j].reps > 0 ? jobs[j].reps : 1);
		if (jobs[j].cwd)
			put(f, "cwd", jobs[j].cwd);
		for (char **a = jobs[j].argv; a && *a; a++)
			put(f, "arg", *a);
		for (char **e = jobs[j].env; e && *e; e++)
			put(f, "env", *e);
		for (char **l = jobs[j].irq; l && *l; l++)
			put(f, HB_JOBFILE_IRQ, *l);
		fputs("end\n", f);
	}
	fclose(f);
	return text;
}
