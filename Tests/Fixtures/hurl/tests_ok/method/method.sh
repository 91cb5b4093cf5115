#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/method/method.hurl
