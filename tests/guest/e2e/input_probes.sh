# input.char/input.line: stprun passes standard input on, a byte at a time.
# $1 stprun, $2 module, $3 name.
printf 'ab\nxyz\n' | $1 "$2"
echo "stprun: exit $?"
