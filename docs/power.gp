# power.gp — the figure of docs/power.md: the rate at which `slpi verify --precision
# binary32 --local` FAILs a port with a planted defect, against the defect's mean effect
# per step in u|x| (u = 2^-24), one curve per trajectory length; held-out defects and
# implementation dashed (blocks by steps, seen then held out, in tests/port/power.py's
# curve.tsv; a length whose runs are all seen or all held out shifts the dashes).
# usage: gnuplot -e "in='CURVE.tsv'; out='FIG.png'" docs/power.gp
set terminal pngcairo size 720,420 font 'sans,10'
set output out
set logscale x
set xrange [0.01:2000]
set yrange [-0.03:1.03]
set xlabel 'mean effect of the defect per step (u |x|, u = 2^-24)'
set ylabel 'detection rate (FAIL)'
set key bottom right
set grid
set termoption noenhanced
set arrow from 1, graph 0 to 1, graph 1 nohead dt 3 lc rgb 'gray40'
do for [k=1:8] { c = (k + 1) / 2; d = 2 - k % 2; set style line k lc c dt d lw 1.5 pt 7 ps 0.6 }
stats in using 3 nooutput
plot for [i=0:STATS_blocks-1] in index i using 3:4 with linespoints ls i + 1 title columnhead(4)
