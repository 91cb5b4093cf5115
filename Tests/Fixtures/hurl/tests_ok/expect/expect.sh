#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/expect/expect.hurl
