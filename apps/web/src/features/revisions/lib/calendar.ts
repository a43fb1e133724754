import { calendarFile, type CalendarEvent } from '@app/domain/calendar';
import { customerTimeZone } from '@/lib/dates';

/** Hands an `.ics` file of the event to the browser (ADR 0045): times in UTC, the customer's zone named. */
export const downloadCalendarFile = (event: Omit<CalendarEvent, 'now' | 'timeZone'>, fileName: string): void => {
  const text = calendarFile({ ...event, now: new Date(), timeZone: customerTimeZone() });
  const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
};
