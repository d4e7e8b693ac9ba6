/** The SVG path of a ring's slice: centre (cx, cy), outer radius, thickness, from one angle to another (degrees, 0 at the top, clockwise). */
export function arcPath(cx: number, cy: number, radius: number, thickness: number, fromDeg: number, toDeg: number): string {
  // A full circle cannot be one arc: stop just short of it.
  const sweep = Math.min(toDeg - fromDeg, 359.99);
  const inner = radius - thickness;
  const point = (r: number, deg: number) => {
    const rad = ((deg - 90) * Math.PI) / 180;
    return `${(cx + r * Math.cos(rad)).toFixed(2)} ${(cy + r * Math.sin(rad)).toFixed(2)}`;
  };
  const large = sweep > 180 ? 1 : 0;
  const end = fromDeg + sweep;
  return [
    `M ${point(radius, fromDeg)}`,
    `A ${radius} ${radius} 0 ${large} 1 ${point(radius, end)}`,
    `L ${point(inner, end)}`,
    `A ${inner} ${inner} 0 ${large} 0 ${point(inner, fromDeg)}`,
    'Z',
  ].join(' ');
}

/** Where each part of a whole starts on a ring and how far it goes (degrees); all zero when the whole is. */
export function ringSegments(values: number[]): { start: number; length: number }[] {
  const total = values.reduce((sum, value) => sum + value, 0);
  let start = 0;
  return values.map((value) => {
    const length = total > 0 ? (value / total) * 360 : 0;
    const segment = { start, length };
    start += length;
    return segment;
  });
}

/** The top of a count axis: the smallest even number at or above `max`, so its half is a whole tick too (1 for an empty month: the axis does not collapse). */
export function niceMax(max: number): number {
  return max <= 0 ? 1 : Math.ceil(max / 2) * 2;
}
