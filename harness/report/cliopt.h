/* getopt_long plumbing shared by the analysis commands (report, plot, gate, import,
 * hostinfo): every option error becomes one usage line and exit 2. */
#ifndef HB_REPORT_CLIOPT_H
#define HB_REPORT_CLIOPT_H

/* Resets getopt for a fresh parse and silences its own messages. */
void hb_getopt_begin(void);
/* c is what getopt_long returned ('?' unknown option, ':' missing value). */
__attribute__((noreturn)) void hb_option_error(const char *cmd, int c, char **argv,
					       const char *accepted);

#endif
