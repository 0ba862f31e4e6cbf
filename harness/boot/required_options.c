#include "boot/required_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* "when" selects the machines/rootfs an option matters for; NULL: always. */
struct required_option {
	const char *name;
	const char *why;
	const char *machine;  /* only for this machine, or NULL */
	const char *rootfs;   /* only for this rootfs, or NULL */
};

static const struct required_option required[] = {
	{ "CONFIG_64BIT", "the guest init is a 64-bit static binary", NULL, NULL },
	{ "CONFIG_BINFMT_ELF", "to run the init and jobs", NULL, NULL },
	{ "CONFIG_PROC_FS", "/proc/stat timings", NULL, NULL },
	{ "CONFIG_SYSFS", "the init finds its ports in /sys", NULL, NULL },
	{ "CONFIG_DEVTMPFS", "the host /dev is not the guest's", NULL, NULL },
	{ "CONFIG_TMPFS", "writable /tmp, /run, $HOME", NULL, NULL },
	{ "CONFIG_OVERLAY_FS", "writable $HOME over the host's", NULL, NULL },
	{ "CONFIG_SERIAL_8250_CONSOLE", "console.log", NULL, NULL },
	{ "CONFIG_VIRTIO_CONSOLE", "the init's result and output ports", NULL, NULL },
	{ "CONFIG_ACPI", "power-off at the end of a boot", NULL, NULL },
	{ "CONFIG_PCI", "q35's virtio devices", "q35", NULL },
	{ "CONFIG_VIRTIO_PCI", "q35's virtio devices", "q35", NULL },
	{ "CONFIG_VIRTIO_MMIO", "microvm's virtio devices", "microvm", NULL },
	{ "CONFIG_FUSE_FS", "the host root over virtiofs", NULL, "virtiofs" },
	{ "CONFIG_VIRTIO_FS", "the host root over virtiofs", NULL, "virtiofs" },
	{ "CONFIG_NET_9P", "the host root over 9p", NULL, "9p" },
	{ "CONFIG_NET_9P_VIRTIO", "the host root over 9p", NULL, "9p" },
	{ "CONFIG_9P_FS", "the host root over 9p", NULL, "9p" },
};

/* "=y", "=m", or NULL (not set) for name in config text. */
static const char *option_value(const char *config, const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);

	for (const char *p = config; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, len) || p[len] != '=')
			continue;
		size_t vlen = strcspn(p + len, "\n");
		snprintf(buf, size, "%.*s", (int)vlen, p + len);
		return buf;
	}
	return NULL;
}

static bool applies(const struct required_option *r, const struct guest_needs *n, const char *rootfs)
{
	return (!r->machine || !strcmp(r->machine, n->machine)) &&
	       (!r->rootfs || !strcmp(r->rootfs, rootfs));
}

/* Appends the options of one rootfs (or the common ones) that are not "=y". */
static void collect(const char *config, const struct guest_needs *n, const char *rootfs,
		    bool rootfs_only, FILE *out, int *count)
{
	char val[64];

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		const struct required_option *r = &required[i];
		if (!applies(r, n, rootfs) || (rootfs_only != (r->rootfs != NULL)))
			continue;
		const char *v = option_value(config, r->name, val, sizeof(val));
		if (v && !strcmp(v, "=y"))
			continue;
		fprintf(out, "%s%s (%s; %s)", (*count)++ ? ", " : "", r->name,
			v ? "=m, must be built in: there is no initramfs" : "not set", r->why);
	}
}

static int count_missing(const char *config, const struct guest_needs *n, const char *rootfs)
{
	char *text = NULL;
	size_t len = 0;
	int count = 0;
	FILE *f = open_memstream(&text, &len);

	collect(config, n, rootfs, true, f, &count);
	fclose(f);
	free(text);
	return count;
}

char *required_options_missing(const char *config, const struct guest_needs *n)
{
	const char *rootfs = n->rootfs;
	char *text = NULL;
	size_t len = 0;
	int count = 0;
	FILE *f = open_memstream(&text, &len);

	/* auto: either root share will do; report the virtiofs options only when neither is
	 * complete. */
	if (!strcmp(rootfs, "auto"))
		rootfs = count_missing(config, n, "virtiofs") == 0 ? "virtiofs"
			 : count_missing(config, n, "9p") == 0 ? "9p" : "virtiofs";
	collect(config, n, rootfs, false, f, &count);
	collect(config, n, rootfs, true, f, &count);
	if (n->pvh) {
		char val[64];
		const char *v = option_value(config, "CONFIG_PVH", val, sizeof(val));
		if (!v || strcmp(v, "=y"))
			fprintf(f, "%sCONFIG_PVH (not set; QEMU boots a vmlinux through its PVH entry)",
				count++ ? ", " : "");
	}
	fclose(f);
	if (!count) {
		free(text);
		return NULL;
	}
	return text;
}

char *bzimage_release(const char *image)
{
	unsigned char hdr[0x210];
	char version[128];
	FILE *f = fopen(image, "rb");
	char *release = NULL;

	if (!f)
		return NULL;
	/* Boot protocol: "HdrS" at 0x202; kernel_version (0x20e) + 0x200 points at a string
	 * that starts with the release. */
	if (fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) && !memcmp(hdr + 0x202, "HdrS", 4)) {
		long off = (long)(hdr[0x20e] | hdr[0x20f] << 8) + 0x200;
		if (fseek(f, off, SEEK_SET) == 0 && fgets(version, sizeof(version), f)) {
			version[strcspn(version, " \n")] = '\0';
			if (*version)
				release = xstrdup(version);
		}
	}
	fclose(f);
	return release;
}

static char *first_readable(char **candidates)
{
	char *found = NULL;

	for (size_t i = 0; candidates[i]; i++) {
		if (!found && hb_is_file(candidates[i]))
			found = candidates[i];
		else
			free(candidates[i]);
	}
	return found;
}

char *find_kernel_config(const char *image)
{
	char *dir = xstrdup(image), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : image;
	char *release = bzimage_release(image);
	char *cand[6] = { 0 };
	size_t n = 0;
	static const char boot_tail[] = "/arch/x86/boot/bzImage";

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	cand[n++] = xasprintf("%s/.config", dir);
	cand[n++] = xasprintf("%s/config", dir);
	if (strlen(image) > strlen(boot_tail) &&
	    !strcmp(image + strlen(image) - strlen(boot_tail), boot_tail))
		cand[n++] = xasprintf("%.*s/.config", (int)(strlen(image) - strlen(boot_tail)), image);
	if (!strncmp(base, "vmlinuz-", 8))
		cand[n++] = xasprintf("%s/config-%s", dir, base + 8);
	if (release)
		cand[n++] = xasprintf("/boot/config-%s", release);
	free(release);
	free(dir);
	return first_readable(cand);
}
