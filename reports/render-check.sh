#!/bin/sh
# render-check.sh DIR — does the audit report DIR/index.html render? Headless Chromium
# takes a screenshot (DIR/screenshot.png); the check fails if Chromium is missing, the
# screenshot is absent or blank-sized, or the page lacks a verdict for some claim of
# DIR/claims.json.
dir=${1:?usage: render-check.sh DIR}
html="$(cd "$dir" && pwd)/index.html"
[ -s "$html" ] || { echo "render-check: $html missing"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser) || {
  echo "render-check: chromium not found (make deps installs it)"; exit 1; }
rm -f "$dir/screenshot.png"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-dev-shm-usage --hide-scrollbars --window-size=1400,2400 \
  --screenshot="$dir/screenshot.png" "file://$html" > "$dir/render.log" 2>&1
size=$(wc -c < "$dir/screenshot.png" 2>/dev/null || echo 0)
if [ "$size" -lt 20000 ]; then
  echo "render-check: FAIL: screenshot $dir/screenshot.png has $size bytes"; cat "$dir/render.log"; exit 1
fi
ids=$(grep -o '"id": "[A-Z][0-9]*"' "$dir/claims.json" | cut -d'"' -f4)
for id in $ids; do
  grep -q "<section id='$id'>" "$html" || { echo "render-check: FAIL: claim $id not in the page"; exit 1; }
done
echo "render-check: ok ($(echo $ids | wc -w) claims; screenshot $dir/screenshot.png, $size bytes)"
