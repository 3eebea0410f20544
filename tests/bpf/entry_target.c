// SPDX-License-Identifier: GPL-2.0-or-later
/* The program tests/bpf/entry_return.stp and uprobe_members.stp probe: a
 * recursive function (built -O0, so that it stays recursive and has a
 * frame-pointer prologue the @entry program is placed past), and one
 * that takes a linked struct. */
struct node {
	long v;
	char name[8];
	int arr[3];
	struct node *next;
};

__attribute__((noinline)) long fact(long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

__attribute__((noinline)) long walk(struct node *p)
{
	return p->v + (p->next ? p->next->v : 0);
}

int main(void)
{
	struct node b = { 2, "second", { 4, 5, 6 }, 0 }, a = { 1, "first", { 1, 2, 3 }, &b };

	return fact(4) == 24 && walk(&a) == 3 ? 0 : 1;
}
