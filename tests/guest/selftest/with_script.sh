# the runner's arguments, then the fake stprun twice (it prints the
# module's kernel-log lines so far: one pair, then two)
echo "args: $(basename "$1") $(basename "$2") $3"
$1 "$2"
$1 "$2"
echo "to stderr" >&2
exit 3
