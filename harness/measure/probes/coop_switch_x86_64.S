/* SPDX-License-Identifier: Apache-2.0 */
/* coop_switch_x86_64.S - the coop-sched probe's hand-written context switch
 * (x86-64 System V; CMake builds this file on x86-64 only).
 *
 * rtc_coop_switch(void **save_sp, void *to_sp)
 *     Push the callee-saved registers (rbp, rbx, r12-r15) on the current
 *     stack, store the stack pointer in *save_sp, load to_sp, pop the same
 *     registers from there and return into whatever that stack was doing.
 *     The caller-saved registers need no saving: the C caller already
 *     assumes a call clobbers them. Unlike swapcontext it leaves the signal
 *     mask alone (no system call) and does not save the x87/SSE control
 *     words: no task of the probe changes them.
 *
 * rtc_coop_trampoline
 *     Where a new task's first switch returns to. coop_sched.c builds the
 *     initial frame: six register slots (r15 r14 r13 r12 rbx rbp, lowest
 *     address first) then this address, with r13 = the task function and
 *     r12 = its argument, placed so that rsp is 16-byte aligned after the
 *     `ret` as the ABI wants before a call. The task function never returns.
 */
#if defined(__x86_64__)

	.text
	.globl	rtc_coop_switch
	.type	rtc_coop_switch, @function
	.p2align 4
rtc_coop_switch:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	rtc_coop_switch, .-rtc_coop_switch

	.globl	rtc_coop_trampoline
	.type	rtc_coop_trampoline, @function
	.p2align 4
rtc_coop_trampoline:
	.cfi_startproc
	.cfi_undefined rip	/* the bottom of a task's stack: backtraces stop here */
	movq	%r12, %rdi
	callq	*%r13
	ud2			/* a task function returned: a bug, fail loudly */
	.cfi_endproc
	.size	rtc_coop_trampoline, .-rtc_coop_trampoline

#endif

	/* The stack stays non-executable. */
	.section .note.GNU-stack, "", @progbits
