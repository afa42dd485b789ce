import { describe, expect, it } from 'vitest';
import { pickPath, waypoints } from './sonic-path.js';

const length = (v: Float32Array) => Math.hypot(...v);

describe('the sonic path', () => {
  it('spaces the waypoints evenly from one sound to the other, each of length 1', () => {
    const points = waypoints(Float32Array.of(1, 0), Float32Array.of(0, 1), 3);
    expect(points).toHaveLength(3);
    for (const point of points) expect(length(point)).toBeCloseTo(1, 5);
    // A quarter, half and three quarters of the way: the first nearer the start, the middle halfway.
    expect(points[0]?.[0]).toBeGreaterThan(points[0]?.[1] ?? 1);
    expect(points[1]?.[0]).toBeCloseTo(points[1]?.[1] ?? 0, 5);
    expect(points[2]?.[1]).toBeGreaterThan(points[2]?.[0] ?? 1);
    expect(waypoints(Float32Array.of(1, 0), Float32Array.of(0, 1), 0)).toEqual([]);
  });

  it('takes for each waypoint its nearest playable song not on the path yet', () => {
    const near = [
      [10, 11, 12],
      [10, 11, 13],
      [99, 14],
      [98, 97],
    ];
    expect(pickPath(near, new Set([10, 11, 12, 13, 14]))).toEqual([10, 11, 14]);
    expect(pickPath(near, new Set())).toEqual([]);
  });
});
