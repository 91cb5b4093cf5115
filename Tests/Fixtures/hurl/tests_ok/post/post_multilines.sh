#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/post/post_multilines.hurl
