# sh tapset_switch_file.sh STPRUN KO MODULE: switch_file() with -o FILE,
# with -o FILE -S (rotated files), and with no file at all
stprun=$1 ko=$2
cd /tmp || exit 1
$stprun -o sw.out "$ko"
echo "-o: exit $?"
for f in sw.out*; do echo "$f:"; cat $f; done
$stprun -o rot -S 1 "$ko"
echo "-o -S: exit $?"
for f in rot*; do echo "$f:"; cat $f; done
$stprun "$ko"
echo "stdout: exit $?"
