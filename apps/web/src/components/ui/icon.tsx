import { createElement, type SVGProps } from 'react';
import type { IconNode } from 'lucide';

/**
 * A Lucide icon (ADR 0028): the `lucide` package's icon data drawn as an inline SVG with Lucide's default
 * attributes. Decorative by default (aria-hidden); the text beside it names the action.
 */
export function Icon({ icon, className, ...props }: { icon: IconNode } & Omit<SVGProps<SVGSVGElement>, 'children'>) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...props}
    >
      {icon.map(([tag, attrs], index) => createElement(tag, { key: index, ...attrs }))}
    </svg>
  );
}
