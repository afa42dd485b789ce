import { GREETING_AFTERNOON_HOUR, GREETING_EVENING_HOUR } from '@tonearm/contract';

export type Greeting = 'Good Morning' | 'Good Afternoon' | 'Good Evening';

/** SPEC §1: before 12 o'clock "Good Morning", before 18 "Good Afternoon", otherwise "Good Evening" (local time). */
export function greeting(date: Date): Greeting {
  const hour = date.getHours();
  if (hour < GREETING_AFTERNOON_HOUR) return 'Good Morning';
  if (hour < GREETING_EVENING_HOUR) return 'Good Afternoon';
  return 'Good Evening';
}
