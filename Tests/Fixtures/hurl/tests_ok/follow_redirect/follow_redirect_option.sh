#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/follow_redirect/follow_redirect_option.hurl
