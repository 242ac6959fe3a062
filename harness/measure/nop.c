/* SPDX-License-Identifier: Apache-2.0 */
/* rtconform-nop: the child of the spawn and fork-exec probes. Does nothing. */
int main(void)
{
	return 0;
}
