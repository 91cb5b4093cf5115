#!/bin/bash
set -Eeuo pipefail

hurl tests_ssl/letsencrypt.hurl
