s/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF\/SIZE/
