#ifndef SLUICE_CNETLINK_SHIM_H
#define SLUICE_CNETLINK_SHIM_H
/* Linux rtnetlink (the kernel's routing socket): the messages the reachability monitor sends and
   reads, and the netlink macros Swift cannot import, as inline functions. Kernel headers only:
   nothing to link. */
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_arp.h>

static inline unsigned int sluice_nlmsg_align(unsigned int length) { return NLMSG_ALIGN(length); }
static inline unsigned int sluice_rta_align(unsigned int length) { return RTA_ALIGN(length); }
static inline unsigned int sluice_rtmgrp_all(void) {
    return RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
}
#endif
