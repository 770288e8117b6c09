import { Children, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { DATA } from '../shared/index.ts';

export interface TabItemProps {
  value: string;
  label?: string;
  default?: boolean;
  children?: ReactNode;
}

/** Only a marker: <Tabs> reads its props and renders the panel. */
export function TabItem({ children }: TabItemProps) {
  return <>{children}</>;
}

/**
 * Server-rendered tabs. Every panel is in the HTML (readable without JavaScript and
 * indexed by search); the client script switches panels, syncs every Tabs with the same
 * groupId on the page and remembers the choice.
 *
 * `lazy`: the panels not shown are sent inside a <template>, which the browser parses
 * but does not turn into elements until the script shows the panel. For many large
 * panels that a reader mostly never opens: an API reference's code samples in nine
 * languages were two thirds of its 15,000 elements. Search does not index them, and
 * without JavaScript a reader sees the first panel only, as with any tabs.
 */
export function Tabs({ groupId, lazy, children }: { groupId?: string; lazy?: boolean; children?: ReactNode }) {
  const baseId = useId().replace(/:/g, '');
  const items = Children.toArray(children).filter((child): child is ReactElement<TabItemProps> => isValidElement(child) && typeof (child.props as TabItemProps).value === 'string');
  if (items.length === 0) return null;
  const selectedIndex = Math.max(0, items.findIndex((item) => item.props.default));
  return (
    <div className="tabs" {...{ [DATA.tabs]: '', [DATA.tabGroup]: groupId ?? '' }}>
      <div className="tabs__list" role="tablist" aria-orientation="horizontal">
        {items.map((item, index) => (
          <button
            key={item.props.value}
            type="button"
            role="tab"
            id={`${baseId}-tab-${index}`}
            aria-controls={`${baseId}-panel-${index}`}
            aria-selected={index === selectedIndex ? 'true' : 'false'}
            tabIndex={index === selectedIndex ? 0 : -1}
            className={`tabs__tab${index === selectedIndex ? ' tabs__tab--active' : ''}`}
            {...{ [DATA.tabValue]: item.props.value }}
          >
            {item.props.label ?? item.props.value}
          </button>
        ))}
      </div>
      {items.map((item, index) => (
        <div
          key={item.props.value}
          role="tabpanel"
          id={`${baseId}-panel-${index}`}
          aria-labelledby={`${baseId}-tab-${index}`}
          className="tabs__panel"
          hidden={index !== selectedIndex}
          {...{ [DATA.tabValue]: item.props.value }}
        >
          {lazy && index !== selectedIndex ? <template>{item.props.children}</template> : item.props.children}
        </div>
      ))}
    </div>
  );
}
