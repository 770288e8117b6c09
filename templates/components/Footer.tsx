import { SmartLink } from './Link.tsx';
import { useSite } from './SiteContext.tsx';

export function Footer() {
  const site = useSite();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__links">
          {site.footer.links.map((column) => (
            <div className="footer__col" key={column.title}>
              <h2 className="footer__title">{column.title}</h2>
              <ul className="footer__items">
                {column.items.map((item) => (
                  <li className="footer__item" key={item.label}>
                    <SmartLink link={item} className="footer__link" />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="footer__copyright">{site.copyright}</p>
      </div>
    </footer>
  );
}
