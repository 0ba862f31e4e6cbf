/* configs/search_path: user folders before the project's, names listed once, and a user
 * file with a project name refused unless it says overrides = yes. */
#include "configs/search_path.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "scratch.h"
#include "test.h"

static char *user_folder(void)
{
	char *dir = scratch_dir(), *sub = hb_path_join(dir, "variants");

	hb_mkdir_p(sub, 0755);
	free(sub);
	scratch_write(dir, "variants/mine.variant", "[variant]\nbuild = base\n");
	scratch_write(dir, "variants/baseline.variant", "[variant]\nbuild = base\n");
	setenv(CONFIGS_PATH_ENV, dir, 1);
	return dir;
}

TEST(user_folder_first_project_last)
{
	char *dir = user_folder(), *from = NULL;
	char **path = config_search_path();
	char *found = config_find("variants", "baseline", ".variant", &from);
	char *project = config_find("variants", "init_on_free", ".variant", NULL);

	CHECK(hb_strv_len(path) == 2 && !strcmp(path[0], dir));
	CHECK(found && from && !strcmp(from, dir), "the user's baseline is found first");
	CHECK(project && strstr(project, "kernel-configs/variants/init_on_free.variant"));
	CHECK(config_find("variants", "nosuch", ".variant", NULL) == NULL);
	char *label = config_origin_label(from);
	CHECK_STR(label, dir);
	free(label);
	label = config_origin_label(path[1]);
	CHECK_STR(label, "project");
	free(label);
	hb_free_strv(path);
	free(found);
	free(from);
	free(project);
	unsetenv(CONFIGS_PATH_ENV);
	hb_remove_tree(dir);
	free(dir);
}

TEST(names_are_listed_once_over_all_folders)
{
	char *dir = user_folder();
	char **names = config_list_all("variants", ".variant");
	size_t baselines = 0;

	for (size_t i = 0; names[i]; i++)
		baselines += !strcmp(names[i], "baseline");
	CHECK(hb_strv_contains(names, "mine") && hb_strv_contains(names, "init_on_free"));
	CHECK(baselines == 1);
	hb_free_strv(names);
	unsetenv(CONFIGS_PATH_ENV);
	hb_remove_tree(dir);
	free(dir);
}

TEST(shadowing_needs_overrides_yes)
{
	char *dir = user_folder();
	char *path = hb_path_join(dir, "variants/baseline.variant");
	char *mine = hb_path_join(dir, "variants/mine.variant");

	CHECK(config_check_shadow(path, dir, "variants", "baseline", ".variant", NULL) == -2);
	CHECK(config_check_shadow(path, dir, "variants", "baseline", ".variant", "no") == -2);
	CHECK(config_check_shadow(path, dir, "variants", "baseline", ".variant", "maybe") == -2);
	CHECK(config_check_shadow(path, dir, "variants", "baseline", ".variant", "yes") == 0);
	CHECK(config_check_shadow(mine, dir, "variants", "mine", ".variant", NULL) == 0);
	free(path);
	free(mine);
	unsetenv(CONFIGS_PATH_ENV);
	hb_remove_tree(dir);
	free(dir);
}

TEST_MAIN()
