import { NavLink } from 'react-router-dom';
import { useOrg } from '../api/use-org.ts';

/** The LLM Hub's sub-navigation: **Tokens**, **Providers** and **Secrets**. */
export function HubNav() {
  const { base } = useOrg();
  return (
    <nav className="subnav" aria-label="LLM Hub">
      <span className="subnav-title">LLM Hub</span>
      <NavLink to={`${base}/tokens`}>Tokens</NavLink>
      <NavLink to={`${base}/providers`}>Providers</NavLink>
      <NavLink to={`${base}/secrets`}>Secrets</NavLink>
    </nav>
  );
}
