// SPDX-License-Identifier: GPL-2.0-or-later
// The networking tapsets' workload (tests/guest/e2e/tapset_ionet): brings
// the loopback device up, then over 127.0.0.1 moves exact byte counts:
// TCP (port 5555) 1000 bytes with write/read and 500 with send/recv,
// after a setsockopt(TCP_NODELAY); UDP (port 5556, to itself) 300 bytes
// with sendto/recvfrom.  Four sockets are created (one for the ioctl),
// five closed (the accepted one too).  Last it waits for one update
// interrupt of the RTC (/dev/rtc0), so that a hardware interrupt handler
// runs (the guest has no other device raising them).  Exits 1 with a
// message on any failure.
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS");
	close(fd);
}

static struct sockaddr_in lo_addr(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* Reads exactly n bytes (loopback may split them). */
static void read_all(int fd, char *buf, size_t n, int use_recv)
{
	while (n) {
		ssize_t r = use_recv ? recv(fd, buf, n, 0) : read(fd, buf, n);

		if (r <= 0)
			die("read");
		n -= r;
		buf += r;
	}
}

static void tcp(void)
{
	static char buf[1000];
	struct sockaddr_in a = lo_addr(5555);
	int one = 1, l, c, s;

	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || c < 0)
		die("socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1))
		die("bind/listen");
	if (connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		die("accept");
	if (setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("setsockopt");
	memset(buf, 'x', sizeof(buf));
	if (write(c, buf, 1000) != 1000)
		die("write");
	read_all(s, buf, 1000, 0);
	if (send(c, buf, 500, 0) != 500)
		die("send");
	read_all(s, buf, 500, 1);
	close(c);
	close(s);
	close(l);
}

static void udp(void)
{
	static char buf[300];
	struct sockaddr_in a = lo_addr(5556);
	int u = socket(AF_INET, SOCK_DGRAM, 0);

	if (u < 0 || bind(u, (struct sockaddr *)&a, sizeof(a)))
		die("udp socket/bind");
	if (sendto(u, buf, 300, 0, (struct sockaddr *)&a, sizeof(a)) != 300)
		die("sendto");
	if (recvfrom(u, buf, sizeof(buf), 0, NULL, NULL) != 300)
		die("recvfrom");
	close(u);
}

/* One RTC update interrupt (irq 8): the read returns when it came. */
static void rtc_irq(void)
{
	unsigned long data;
	int fd = open("/dev/rtc0", O_RDONLY);

	if (fd < 0)
		die("/dev/rtc0");
	if (ioctl(fd, RTC_UIE_ON, 0) || read(fd, &data, sizeof(data)) != sizeof(data))
		die("RTC_UIE_ON");
	ioctl(fd, RTC_UIE_OFF, 0);
	close(fd);
}

int main(void)
{
	lo_up();
	tcp();
	udp();
	rtc_irq();
	return 0;
}
