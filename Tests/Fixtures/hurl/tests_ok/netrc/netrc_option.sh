#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/netrc/netrc_option.hurl
