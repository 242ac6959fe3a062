/* SPDX-License-Identifier: Apache-2.0 */
/* test_rtperm.c - where the RT group scheduling file of a cgroup lies,
 * from mountinfo and /proc/self/cgroup text: the mount's root (field 4)
 * maps the group below it, a group outside it is out of reach, and the
 * octal escapes of mount points are decoded. */
#include <check.h>

#include <sched.h>
#include <string.h>

#include "base/policy.h"
#include "base/rtperm.h"
#include "test_util.h"

static const char cg_docker[] =
	"12:pids:/docker/abc\n"
	"4:cpu,cpuacct:/docker/abc\n"
	"0::/\n";

START_TEST(host_root)
{
	const char mi[] =
		"25 1 0:22 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup "
		"rw,cpu,cpuacct\n";
	char path[600];
	ck_assert_int_eq(rtperm_cgroup_file(mi, "4:cpu,cpuacct:/a/b\n", path, sizeof path),
			 RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/sys/fs/cgroup/cpu,cpuacct/a/b/cpu.rt_runtime_us");
	ck_assert_int_eq(rtperm_cgroup_file(mi, "4:cpu,cpuacct:/\n", path, sizeof path),
			 RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/sys/fs/cgroup/cpu,cpuacct/cpu.rt_runtime_us");
}
END_TEST

/* In a cgroup-v1 container the mount shows only /docker/abc and below. */
START_TEST(container_root)
{
	const char mi[] =
		"700 690 0:30 /docker/abc /sys/fs/cgroup/cpu rw,nosuid - cgroup cgroup rw,cpuacct,cpu\n";
	char path[600];
	ck_assert_int_eq(rtperm_cgroup_file(mi, cg_docker, path, sizeof path), RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/sys/fs/cgroup/cpu/cpu.rt_runtime_us");
	ck_assert_int_eq(rtperm_cgroup_file(mi, "4:cpu,cpuacct:/docker/abc/sub\n", path,
					    sizeof path), RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/sys/fs/cgroup/cpu/sub/cpu.rt_runtime_us");
	/* /docker/abcdef is not below /docker/abc */
	ck_assert_int_eq(rtperm_cgroup_file(mi, "4:cpu,cpuacct:/docker/abcdef\n", path,
					    sizeof path), RTPERM_CG_UNREACHABLE);
	ck_assert_ptr_nonnull(strstr(path, "/docker/abcdef is outside the root /docker/abc"));
	ck_assert_ptr_nonnull(strstr(path, "cannot be reached"));
	ck_assert_int_eq(rtperm_cgroup_file(mi, "4:cpu,cpuacct:/other\n", path, sizeof path),
			 RTPERM_CG_UNREACHABLE);
}
END_TEST

/* A second mount that reaches the group wins over one that does not. */
START_TEST(second_mount_reaches)
{
	const char mi[] =
		"700 690 0:30 /docker/xyz /mnt/a rw - cgroup cgroup rw,cpu\n"
		"701 690 0:30 / /mnt/b rw - cgroup cgroup rw,cpu\n";
	char path[600];
	ck_assert_int_eq(rtperm_cgroup_file(mi, cg_docker, path, sizeof path), RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/mnt/b/docker/abc/cpu.rt_runtime_us");
}
END_TEST

START_TEST(octal_escapes)
{
	const char mi[] =
		"25 1 0:22 /my\\040group /mnt/cg\\040cpu\\011x\\012y\\134z rw - cgroup cgroup rw,cpu\n";
	char path[600];
	ck_assert_int_eq(rtperm_cgroup_file(mi, "3:cpu:/my group/in\n", path, sizeof path),
			 RTPERM_CG_FOUND);
	ck_assert_str_eq(path, "/mnt/cg cpu\tx\ny\\z/in/cpu.rt_runtime_us");
}
END_TEST

START_TEST(no_cpu_hierarchy)
{
	const char v2[] = "30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
			  "31 1 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
			  "32 1 0:28 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n";
	char path[600];
	ck_assert_int_eq(rtperm_cgroup_file(v2, "0::/user.slice\n", path, sizeof path),
			 RTPERM_CG_NONE);
	ck_assert_int_eq(rtperm_cgroup_file(v2, "4:cpu:/a\n", path, sizeof path), RTPERM_CG_NONE);
	ck_assert_int_eq(rtperm_cgroup_file("", "", path, sizeof path), RTPERM_CG_NONE);
}
END_TEST

/* The one table of the policies' names, by the kernel's numbers: the word
 * files and reports write, the kernel's name the worker's messages give. */
START_TEST(policy_names)
{
	ck_assert_str_eq(policy_name(SCHED_OTHER), "other");
	ck_assert_str_eq(policy_name(SCHED_FIFO), "fifo");
	ck_assert_str_eq(policy_name(SCHED_RR), "rr");
	ck_assert_str_eq(policy_kernel_name(SCHED_FIFO), "SCHED_FIFO");
	ck_assert_str_eq(policy_kernel_name(SCHED_BATCH), "SCHED_BATCH");
	ck_assert_str_eq(policy_kernel_name(6), "SCHED_DEADLINE");
	ck_assert_str_eq(policy_name(4), "?"); /* no policy of that number */
	ck_assert_str_eq(policy_name(-1), "?");
	ck_assert_str_eq(policy_kernel_name(99), "an unknown policy");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtperm");
	TCase *tc = tu_tcase(s, "cgroup_file", 10);
	tcase_add_test(tc, host_root);
	tcase_add_test(tc, container_root);
	tcase_add_test(tc, second_mount_reaches);
	tcase_add_test(tc, octal_escapes);
	tcase_add_test(tc, no_cpu_hierarchy);
	tcase_add_test(tc, policy_names);
	return tu_run(s);
}
