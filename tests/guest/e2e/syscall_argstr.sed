s/0x[0-9a-f]{6,}/ADDR/g
s/^(clone|wait4) = [0-9]+$/\1 = PID/
s/^wait4\([0-9]+,/wait4(PID,/
