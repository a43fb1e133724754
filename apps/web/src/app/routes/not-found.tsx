import { Link } from 'wouter';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { StandalonePage } from './standalone-layout';

/** SPEC §2 "/404: Page not found, with a button 'Go to All Orders'". */
export function Component() {
  return (
    <StandalonePage title="Page not found">
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to={paths.dashboard} className={buttonClass('primary', 'self-start no-underline')}>
        Go to All Orders
      </Link>
    </StandalonePage>
  );
}
