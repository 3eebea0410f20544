# sh bpf_kfunc_module.sh STPRUN OBJECT NAME: watchdog is loaded before
# the run (a trampoline is attached to a loaded function), softdog
# during it (soft_noboot: no reboot whatever happens).
insmod /files/watchdog.ko 2>/dev/null
exec "/files/$3.run" "$2" -c "insmod /files/softdog.ko soft_noboot=1"
